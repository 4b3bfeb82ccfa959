"""The names the XML reports (ddsml) give their columns and variables.

Columns and variables are found by name, compared without case, blanks or
punctuation (:func:`key`: ``% Dev Util`` is ``devutil``); each field has
the names the Postprocessor and the DDS use for it. The device, channel,
CPU and rank reports (:mod:`models.rmf.xmlmap`) and the cache report
(:mod:`models.rmf.xmlcache`) both read them here, so neither imports the
other for its names.
"""
from __future__ import annotations

import re


def key(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


#: field: names it goes by (as :func:`key` makes them). The z/OS 2.5 DDS's
#: own names (``../shared/rmf/dds-zos25``) come first; the others are our
#: samples' and the manuals' (docs/rmf-import.md says which are confirmed).
COLUMNS = {
    "sg": ("storagegroup", "stggrp"), "devnum": ("devicenumber", "devnum", "devicenum"),
    "dtype": ("devicetype",), "cyl": ("numberofcylinders", "numberofcyl"),
    "volser": ("volumeserialnumber", "volumeserial", "volser", "volume"),
    "pav": ("availablepavdevices", "pav"), "hyperpav": ("hyperpav",),
    "lcu": ("lcunumber", "lcu"),
    "rate": ("deviceactivityrate", "activityrate"),
    "resp": ("averageresponsetime", "avgresptime", "responsetime"),
    "iosq": ("averageiosqueuetime", "avgiosqtime", "iosqtime"),
    "cmr": ("averagecmrdelay", "avgcmrdly", "avgcmrdelay"),
    "db": ("averagedevicebusydelay", "avgdbdly", "avgdbdelay"),
    "pend": ("averagedevicependingtime", "avgpendtime", "pendtime"),
    "disc": ("averagedevicedisconnecttime", "avgdisctime", "disctime"),
    "conn": ("averagedeviceconnecttime", "avgconntime", "conntime"),
    "util": ("deviceutilized", "devutil", "deviceutilization"),
    "resv": ("devicereserved", "devresv"), "message": ("message",),
    "chpid": ("channelpathid", "chpid", "id"), "ctype": ("channelpathtype", "type"),
    "gen": ("generation", "g"), "status": ("status",),
    "part": ("utillpar", "utilizationpartition", "utilizationpart"),
    "total": ("utiltotal", "utilizationtotal",),
    "read_mb": ("readmbsectotal",), "write_mb": ("writembsectotal",),
    "ficon": ("ficonopsrate", "ficonoperationsrate"),
    "zhpf": ("zhpfopsrate", "zhpfoperationsrate"),
    "cpu": ("cpunumber",), "cputype": ("cputype",), "lpar": ("timelparbusy", "lparbusy"),
    "mvs": ("timemvsbusy", "mvsbusy"),
    "pool": ("extentpoolid", "extentpool"), "rrid": ("rankid", "rrid"),
    "rops": ("readopssec",), "rbop": ("readbytesop",), "rresp": ("readresptimeop",),
    "wops": ("writeopssec",), "wbop": ("writebytesop",), "wresp": ("writeresptimeop",),
    "ssd": ("ssd",), "arrays": ("numberofarrays",), "rpm": ("minrpm",),
    "cap": ("rankcapacity",), "raid": ("raidtype",),
    "io": ("iorate",), "rhit": ("cachehitreadrate", "readhitrate"),
    "dfw": ("cachehitdfwrate", "dfwrate"), "stage": ("dasdiostagerate", "stagerate"),
    "rhr": ("readhitratio", "readhr"), "whr": ("writehitratio", "writehr"),
    "pctread": ("readofreadwrite", "read"),
}
#: The request table's columns (READ and WRITE I/O REQUESTS; the DDS adds
#: the misses to it): field: names.
REQUESTS = {
    "rcount": ("readcount",), "rrate": ("readrate",), "rhits": ("readhits",),
    "rhitrate": ("readhitsrate", "readhitrate"), "rhr": ("readhitratio", "readhr"),
    "wcount": ("writecount",), "wrate": ("writerate",), "fast": ("fastwrite", "writefast"),
    "fastrate": ("fastwriterate", "writefastrate"), "whits": ("writehits",),
    "whitrate": ("writehitsrate", "writehitrate"), "whr": ("writehitratio", "writehr"),
    "pct": ("readofreadwrite", "read"),
    "mread": ("readmisses",), "mreadrate": ("readmissrate",), "mwrite": ("writemisses",),
    "mwriterate": ("writemissrate",), "tracks": ("cachemissestracks",),
    "tracksrate": ("cachemissestracksrate",),
}
#: The control unit's header variables: field: names.
HEADER = {"ssid": ("subsystemid", "ssid"), "cuid": ("physicalcuid", "cuid"),
          "typemodel": ("typemodel",),
          "cache": ("storageconfigured", "subsystemstorageconfigured"),
          "nvs": ("nvsconfigured", "nonvolatilestorageconfigured")}


def _field(name: str, table: dict) -> str:
    n = key(name)
    return next((f for f, al in table.items() if n in al), n)

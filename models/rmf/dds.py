"""Fetching Postprocessor reports from an RMF Distributed Data Server (DDS).

The DDS (GPMSERVE) serves the Postprocessor's XML at
``/gpm/rmfpp.xml?reports=CACHE,DEVICE,CHAN,CPU,ESS&date=YYYYMMDD[,YYYYMMDD]``.
:func:`read_dds` fetches it and reads it like a file
(:mod:`models.rmf.ddsml`):

* every request has a timeout; a DDS that does not answer, answers with an
  HTTP error, an HTML error page, a GPM message or a cut-off body gets one
  RmfError naming the URL (never the password);
* TLS certificates and host names are verified unless ``verify=False``;
* the user goes in ``user``, the password comes from :func:`password`
  (environment variable or a prompt), never from the command line or the URL;
* the response is streamed to a temporary file (bounded memory) and kept,
  when asked, only once it has been read without error: nothing
  half-written is saved.
"""
from __future__ import annotations

import base64
import getpass
import http.client
import os
import re
import shutil
import socket
import ssl
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from models.rmf.records import RmfError, RmfSystem

REPORTS = ("CACHE", "DEVICE", "CHAN", "CPU", "ESS")
#: Environment variable the password may come from.
PASSWORD_ENV = "ZPERFLAB_DDS_PASSWORD"
TIMEOUT_S = 60.0
_DATE = re.compile(r"^\d{8}(,\d{8})?$")
_CHUNK = 1 << 16


def password(user: str | None, env=os.environ, prompt=getpass.getpass) -> str | None:
    """The DDS password: ``$ZPERFLAB_DDS_PASSWORD`` if set, else asked for
    (without echo). None when there is no user."""
    if not user:
        return None
    if env.get(PASSWORD_ENV):
        return env[PASSWORD_ENV]
    return prompt(f"DDS password for {user}: ")


def report_url(base: str, date: str, reports=REPORTS) -> str:
    """The DDS URL of the Postprocessor reports for ``date`` (YYYYMMDD[,YYYYMMDD])."""
    parts = urllib.parse.urlsplit(base)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise RmfError(base, None, "the DDS address must look like https://HOST:8803")
    if parts.username or parts.password:
        raise RmfError(f"{parts.scheme}://{parts.hostname}", None,
                       "put the user in --user and the password in "
                       f"{PASSWORD_ENV} or the prompt, not in the address")
    if not _DATE.match(date):
        raise RmfError(base, None, f"date '{date}' must be YYYYMMDD or YYYYMMDD,YYYYMMDD")
    query = urllib.parse.urlencode({"reports": ",".join(reports), "date": date}, safe=",")
    return f"{base.rstrip('/')}/gpm/rmfpp.xml?{query}"


def tls_context(verify: bool = True) -> ssl.SSLContext:
    """Certificates and host names checked, unless ``verify`` is False."""
    ctx = ssl.create_default_context()
    if not verify:
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
    return ctx


def fetch(url: str, dest: Path, user: str | None = None, secret: str | None = None,
          verify: bool = True, timeout: float = TIMEOUT_S) -> None:
    """Stream the response of ``url`` into ``dest``; RmfError on any failure."""
    req = urllib.request.Request(url, headers={"Accept": "application/xml"})
    if user:
        token = base64.b64encode(f"{user}:{secret or ''}".encode()).decode()
        req.add_header("Authorization", f"Basic {token}")
    opener = urllib.request.build_opener(urllib.request.HTTPSHandler(context=tls_context(verify)))
    where = url.split("?")[0]
    try:
        with opener.open(req, timeout=timeout) as resp, open(dest, "wb") as out:
            head = resp.read(_CHUNK)
            _refuse_html(head, where, resp.status)
            out.write(head)
            while chunk := resp.read(_CHUNK):
                out.write(chunk)
    except urllib.error.HTTPError as e:
        hint = {401: ": check the user and the password", 403: ": the user may not read RMF "
                "data", 404: ": is this an RMF DDS (GPMSERVE)?"}.get(e.code, "")
        raise RmfError(where, None, f"the DDS answered HTTP {e.code} {e.reason}{hint}") from None
    except http.client.IncompleteRead as e:
        raise RmfError(where, None, f"the DDS response was cut off after {len(e.partial)} "
                       "bytes of the last block (truncated); try again") from None
    except urllib.error.URLError as e:
        raise RmfError(where, None, _unreachable(e.reason, timeout)) from None
    except (socket.timeout, TimeoutError):
        raise RmfError(where, None, f"the DDS did not answer within {timeout:g} s") from None
    except (ConnectionError, http.client.HTTPException) as e:
        raise RmfError(where, None, f"the DDS connection failed: {e}") from None


def _unreachable(reason, timeout: float) -> str:
    if isinstance(reason, ssl.SSLCertVerificationError):
        return (f"the DDS's TLS certificate is not trusted ({reason.verify_message}); install "
                "its CA, or say --insecure to skip the check")
    if isinstance(reason, (socket.timeout, TimeoutError)):
        return f"the DDS did not answer within {timeout:g} s"
    if isinstance(reason, ConnectionRefusedError):
        return "the DDS does not answer (connection refused): is GPMSERVE running on that port?"
    return f"the DDS cannot be reached: {reason}"


def _refuse_html(head: bytes, where: str, status: int) -> None:
    lead = head.lstrip()[:200].lower()
    if lead.startswith((b"<!doctype html", b"<html")):
        m = re.search(rb"<title>(.*?)</title>", head, re.I | re.S)
        title = m.group(1).decode("latin-1").strip() if m else "no title"
        raise RmfError(where, None, f"the DDS answered with an HTML page ({status}, "
                                    f"'{title}') instead of RMF XML")


def read_dds(base: str, date: str, user: str | None = None, secret: str | None = None,
             verify: bool = True, timeout: float = TIMEOUT_S, interval: int | None = None,
             keep: str | Path | None = None, reports=REPORTS) -> RmfSystem:
    """Fetch the reports for ``date`` from the DDS at ``base`` and read them.

    ``keep``: save the XML there, once read without error (written next to
    it first, then renamed). Returns the :class:`RmfSystem`.
    """
    from models.rmf import ddsml
    from models.rmf.reader import assemble
    from models.rmf.text import TextReader

    url = report_url(base, date, reports)
    where = url.split("?")[0]
    with tempfile.TemporaryDirectory(prefix="zperflab-dds-") as tmp:
        raw = Path(tmp) / "rmfpp.xml"
        fetch(url, raw, user, secret, verify, timeout)
        if raw.stat().st_size == 0:
            raise RmfError(where, None, "the DDS answered with nothing")
        reader = TextReader()
        mapper_name = f"{where}?date={date}"
        from models.rmf import xmlmap
        mapper = xmlmap.Mapper(reader, mapper_name)
        ddsml.parse(str(raw), mapper.add, mapper_name)
        mapper.finish()
        system = assemble(reader, [mapper_name], interval)
        if keep is not None:
            keep = Path(keep)
            part = keep.with_name(keep.name + ".part")
            shutil.copyfile(raw, part)
            os.replace(part, keep)
    return system

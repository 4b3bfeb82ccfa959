"""Fetching RMF reports from an RMF Distributed Data Server (DDS).

The DDS (GPMSERVE) serves the Postprocessor's XML at
``/gpm/rmfpp.xml?reports=CACHE,DEVICE,CHAN,CPU,ESS&date=YYYYMMDD[,YYYYMMDD]``
(:func:`read_dds`) and Monitor III's current range of a system at
``/gpm/rmfm3.xml?report=DEVR&resource=,SYSA,MVS_IMAGE``
(:func:`read_dds_m3`). Either answer is read like a file
(:mod:`models.rmf.ddsml`, :mod:`models.rmf.m3`), told apart by content:

* ``timeout`` is a deadline for the whole answer, not for each read: a
  watchdog shuts the connection down when it passes, so a server dripping
  a byte at a time cannot hold the import;
* an answer over ``max_bytes`` (:data:`MAX_BYTES`) is refused;
* a redirect is followed only within the first URL's origin (scheme, host
  and port: never to another host, never from https to http), at most
  :data:`MAX_REDIRECTS` times, and the credentials are never sent after one;
* a DDS that does not answer, answers with an HTTP error, an HTML error
  page, a GPM message or a cut-off body gets one RmfError naming the URL
  (never the password);
* TLS certificates and host names are verified unless ``verify=False``;
* the user goes in ``user``, the password comes from :func:`password`
  (environment variable or a prompt), never from the command line or the URL;
* the answer is streamed to a temporary folder (bounded memory) that goes
  on every exit path (the caller's signal handlers turn SIGTERM into an
  exception, see ``app.rmf_cli``), and is kept, when asked, only once it has
  been read without error: nothing half-written is saved.
"""
from __future__ import annotations

import base64
import getpass
import http.client
import math
import os
import re
import shutil
import socket
import ssl
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

from models.rmf.records import RmfError, RmfSystem

REPORTS = ("CACHE", "DEVICE", "CHAN", "CPU", "ESS")
#: Environment variable the password may come from.
PASSWORD_ENV = "ZPERFLAB_DDS_PASSWORD"
TIMEOUT_S = 60.0
#: Longest ``--timeout`` taken (an hour).
MAX_TIMEOUT_S = 3600.0
#: Largest answer read. A Postprocessor day of 2,000 volumes' device and cache
#: reports is about 60 MB (bench/rmf_import_scale.py: 100 MB for 167
#: intervals), a Monitor III answer tens of KB.
MAX_BYTES = 256 * 2**20
#: Redirects followed, each within the first URL's origin.
MAX_REDIRECTS = 3
_DATE = re.compile(r"^\d{8}(,\d{8})?$")
_SYSTEM = re.compile(r"^[A-Za-z0-9@#$]{1,8}$")
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
    _check_base(base)
    if not _DATE.match(date):
        raise RmfError(base, None, f"date '{date}' must be YYYYMMDD or YYYYMMDD,YYYYMMDD")
    query = urllib.parse.urlencode({"reports": ",".join(reports), "date": date}, safe=",")
    return f"{base.rstrip('/')}/gpm/rmfpp.xml?{query}"


def _check_base(base: str) -> None:
    parts = urllib.parse.urlsplit(base)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise RmfError(base, None, "the DDS address must look like https://HOST:8803")
    if parts.username or parts.password:
        raise RmfError(f"{parts.scheme}://{parts.hostname}", None,
                       "put the user in --user and the password in "
                       f"{PASSWORD_ENV} or the prompt, not in the address")


def tls_context(verify: bool = True) -> ssl.SSLContext:
    """Certificates and host names checked, unless ``verify`` is False."""
    ctx = ssl.create_default_context()
    if not verify:
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
    return ctx


def check_timeout(timeout: float) -> float:
    """``timeout`` if it is a usable deadline in seconds, else ValueError
    (``inf``, ``nan``, 0 and negatives are not)."""
    if not (isinstance(timeout, (int, float)) and math.isfinite(timeout)
            and 0 < timeout <= MAX_TIMEOUT_S):
        raise ValueError(f"a DDS timeout of {timeout} s: give a number of seconds, 0 < "
                         f"SECONDS <= {MAX_TIMEOUT_S:g} (the deadline for the whole answer)")
    return float(timeout)


class _Watchdog:
    """Shuts the request's socket down at the deadline, whatever call is
    blocked on it (connect, TLS handshake, headers or body): a server that
    drips a byte at a time cannot outlast ``--timeout``."""

    def __init__(self, deadline: float) -> None:
        self.lock = threading.Lock()
        self.socks: list[socket.socket] = []
        self.fired = False
        self.timer = threading.Timer(max(0.0, deadline - time.monotonic()), self._fire)
        self.timer.daemon = True
        self.timer.start()

    def connect(self, address, timeout, source_address=None) -> socket.socket:
        """``socket.create_connection``, watched (HTTPConnection's hook)."""
        sock = socket.create_connection(address, timeout, source_address)
        with self.lock:
            self.socks.append(sock.dup())    # the same connection, even once TLS wraps it
            if self.fired:
                self._shut()
        return sock

    def _fire(self) -> None:
        with self.lock:
            self.fired = True
            self._shut()

    def _shut(self) -> None:
        for s in self.socks:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass                          # already closed by the peer: nothing to stop

    def close(self) -> None:
        self.timer.cancel()
        with self.lock:
            for s in self.socks:
                s.close()
            self.socks.clear()


def fetch(url: str, dest: Path, user: str | None = None, secret: str | None = None,
          verify: bool = True, timeout: float = TIMEOUT_S, max_bytes: int = MAX_BYTES,
          deadline: float | None = None) -> None:
    """Stream the answer of ``url`` into ``dest``; RmfError on any failure.

    ``timeout`` is the deadline for the whole answer (``deadline``, a
    ``time.monotonic()`` value, overrides it for several requests sharing
    one). A redirect is followed only within the same origin (scheme, host,
    port), and the credentials are never sent after one. An answer longer
    than ``max_bytes`` is refused.
    """
    check_timeout(timeout)
    deadline = deadline if deadline is not None else time.monotonic() + timeout
    where = url.split("?")[0]
    dog = _Watchdog(deadline)
    try:
        _get(url, dest, _basic(user, secret), verify, dog, max_bytes, where)
    except RmfError:
        raise
    except (OSError, http.client.HTTPException) as e:
        if dog.fired:
            raise RmfError(where, None, _late(timeout)) from None
        raise RmfError(where, None, _failed(e, timeout)) from None
    finally:
        dog.close()
    if dog.fired:
        raise RmfError(where, None, _late(timeout))


def _basic(user: str | None, secret: str | None) -> str | None:
    if not user:
        return None
    return "Basic " + base64.b64encode(f"{user}:{secret or ''}".encode()).decode()


def _get(url: str, dest: Path, auth: str | None, verify: bool, dog: _Watchdog,
         max_bytes: int, where: str) -> None:
    first = urllib.parse.urlsplit(url)
    for hop in range(MAX_REDIRECTS + 1):
        conn = _connection(url, verify, dog)
        try:
            headers = {"Accept": "application/xml"}
            if auth and hop == 0:             # never after a redirect, even to the same host
                headers["Authorization"] = auth
            parts = urllib.parse.urlsplit(url)
            conn.request("GET", parts.path + (f"?{parts.query}" if parts.query else ""),
                         headers=headers)
            resp = conn.getresponse()
            if resp.status in (301, 302, 303, 307, 308):
                url = _redirect(first, url, resp.getheader("Location") or "", where)
                continue
            if resp.status != 200:
                raise _http_error(resp, where, hop, auth)
            _stream(resp, dest, where, max_bytes)
            return
        finally:
            conn.close()
    raise RmfError(where, None, f"the DDS redirected more than {MAX_REDIRECTS} times: not "
                                "followed further")


def _connection(url: str, verify: bool, dog: _Watchdog) -> http.client.HTTPConnection:
    parts = urllib.parse.urlsplit(url)
    left = max(0.001, dog.timer.interval)     # each socket call; the watchdog ends it all
    conn: http.client.HTTPConnection
    if parts.scheme == "https":
        conn = http.client.HTTPSConnection(parts.hostname, parts.port, timeout=left,
                                           context=tls_context(verify))
    else:
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=left)
    conn._create_connection = dog.connect     # type: ignore[attr-defined]  # its hook
    return conn


def _origin(parts: urllib.parse.SplitResult) -> tuple:
    return (parts.scheme, (parts.hostname or "").lower(),
            parts.port or {"http": 80, "https": 443}.get(parts.scheme))


def _redirect(first: urllib.parse.SplitResult, url: str, location: str, where: str) -> str:
    """The URL a redirect names, if it stays on the first URL's origin."""
    target = urllib.parse.urlsplit(urllib.parse.urljoin(url, location))
    there = f"{target.scheme}://{target.hostname or '?'}" + \
        (f":{target.port}" if target.port else "")
    if first.scheme == "https" and target.scheme != "https":
        raise RmfError(where, None, f"the DDS redirected from https to {there}: not "
                       "followed (the answer would travel unencrypted)")
    if _origin(target) != _origin(first):
        raise RmfError(where, None, f"the DDS redirected to another address ({there}): not "
                       "followed, and the user and password were not sent there; if that is "
                       "the DDS, give it as --dds")
    return urllib.parse.urlunsplit(target)


def _http_error(resp, where: str, hop: int, auth: str | None) -> RmfError:
    hint = {401: ": check the user and the password", 403: ": the user may not read RMF "
            "data", 404: ": is this an RMF DDS (GPMSERVE)?"}.get(resp.status, "")
    if hop and auth and resp.status == 401:
        hint = (": it asked for a password after a redirect, and credentials are never "
                "sent after a redirect; give the address it redirects to as --dds")
    return RmfError(where, None, f"the DDS answered HTTP {resp.status} {resp.reason}{hint}")


def _stream(resp, dest: Path, where: str, max_bytes: int) -> None:
    declared = resp.getheader("Content-Length")
    if declared and declared.isdigit() and int(declared) > max_bytes:
        raise _too_long(where, max_bytes)
    done = 0
    head = b""
    with open(dest, "wb") as out:
        while chunk := resp.read1(_CHUNK):
            done += len(chunk)
            if done > max_bytes:
                raise _too_long(where, max_bytes)
            if head is not None:
                head += chunk
                if len(head) < 512:
                    continue
                _refuse_html(head, where, resp.status)
                chunk, head = head, None
            out.write(chunk)
        if head is not None:
            _refuse_html(head, where, resp.status)
            out.write(head)


def _too_long(where: str, max_bytes: int) -> RmfError:
    return RmfError(where, None, f"the DDS answer passed {max_bytes / 2**20:g} MB, the most "
                    "zPerfLab takes (a day of a large system is tens of MB): not read; ask "
                    "for fewer days")


def _late(timeout: float) -> str:
    return f"the DDS did not answer in full within {timeout:g} s"


def _failed(e: Exception, timeout: float) -> str:
    if isinstance(e, http.client.IncompleteRead):
        return (f"the DDS answer was cut off after {len(e.partial)} bytes of the last block "
                "(truncated); try again")
    if isinstance(e, ssl.SSLCertVerificationError):
        return _unreachable(e, timeout)
    if isinstance(e, (socket.timeout, TimeoutError)):
        return _late(timeout)
    if isinstance(e, ConnectionRefusedError):
        return _unreachable(e, timeout)
    if isinstance(e, socket.gaierror):
        return f"the DDS cannot be reached: {e}"
    return f"the DDS connection failed: {e}"


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
             keep: str | Path | None = None, reports=REPORTS,
             max_bytes: int = MAX_BYTES) -> RmfSystem:
    """Fetch the reports for ``date`` from the DDS at ``base`` and read them.

    ``keep``: save the XML there, once read without error (written next to
    it first, then renamed). ``timeout``: the deadline for the whole answer.
    Returns the :class:`RmfSystem`.
    """
    from models.rmf.reader import assemble
    from models.rmf.text import TextReader

    url = report_url(base, date, reports)
    name = f"{url.split('?')[0]}?date={date}"
    with tempfile.TemporaryDirectory(prefix="zperflab-dds-") as tmp:
        raw = Path(tmp) / "rmfpp.xml"
        fetch(url, raw, user, secret, verify, timeout, max_bytes)
        reader = TextReader()
        _read_answer(raw, reader, name)
        system = assemble(reader, [name], interval)
        if keep is not None:
            _keep(raw, Path(keep))
    return system


def m3_url(base: str, system: str, report: str) -> str:
    """The DDS URL of Monitor III ``report`` of MVS image ``system`` (its current range)."""
    _check_base(base)
    if not _SYSTEM.match(system or ""):
        raise RmfError(base, None, f"system '{system}' must be an MVS system name (1 to 8 "
                                   "letters, digits, @, # or $), as RMF names the image")
    query = urllib.parse.urlencode({"report": report, "resource": f",{system.upper()},"
                                    "MVS_IMAGE"})
    return f"{base.rstrip('/')}/gpm/rmfm3.xml?{query}"


def read_dds_m3(base: str, system: str, user: str | None = None, secret: str | None = None,
                verify: bool = True, timeout: float = TIMEOUT_S,
                reports=None, max_bytes: int = MAX_BYTES) -> RmfSystem:
    """The current Monitor III minute of ``system``: DEVR, CHANNEL and CPC
    asked for together (one deadline, ``timeout``, for all of them) and read
    as one interval (:mod:`models.rmf.m3`)."""
    from models.rmf import m3
    from models.rmf.reader import assemble
    from models.rmf.text import TextReader

    check_timeout(timeout)
    deadline = time.monotonic() + timeout
    reader, names = TextReader(), []
    join: list[tuple] = []
    with tempfile.TemporaryDirectory(prefix="zperflab-dds-") as tmp:
        for report in reports or m3.REPORTS:
            url = m3_url(base, system, report)
            name = f"{url.split('?')[0]}?report={report}"
            raw = Path(tmp) / f"{report}.xml"
            fetch(url, raw, user, secret, verify, timeout, max_bytes, deadline)
            _read_answer(raw, reader, name, join)
            names.append(name)
    return assemble(reader, names, None)


def _read_answer(raw: Path, reader, name: str, join: list | None = None) -> None:
    """A DDS answer of either kind: Postprocessor (rmfpp.xml) or Monitor III (rmfm3.xml)."""
    from models.rmf import ddsml, m3, xmlmap

    if raw.stat().st_size == 0:
        raise RmfError(name, None, "the DDS answered with nothing")
    if m3.is_m3(raw):
        m3.read_m3(raw, reader, name, join)
        return
    mapper = xmlmap.Mapper(reader, name)
    ddsml.parse(str(raw), mapper.add, name)
    mapper.finish()


def _keep(raw: Path, keep: Path) -> None:
    """Copy the answer to ``keep`` whole or not at all."""
    part = keep.with_name(keep.name + ".part")
    try:
        shutil.copyfile(raw, part)
        os.replace(part, keep)
    finally:
        part.unlink(missing_ok=True)

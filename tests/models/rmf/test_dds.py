"""The DDS client against a local HTTP server serving recorded responses."""
import base64
import http.server
import shutil
import ssl
import subprocess
import threading
import time
from pathlib import Path

import pytest

from models.rmf import RmfError, dds

DATA = Path(__file__).resolve().parents[2] / "data" / "rmf"
MANY = (DATA / "sysa-many-intervals.xml").read_bytes()
GPM_ERROR = b"""<?xml version="1.0" encoding="UTF-8"?>
<ddsml><server><name>RMF-DDS-Server</name></server>
<postprocessor><message id="GPM0739E"><description>Invalid DDS request parameter 'DATE'\
</description><severity>3</severity></message></postprocessor></ddsml>
"""


class _Handler(http.server.BaseHTTPRequestHandler):
    mode = "ok"
    seen: list = []

    def log_message(self, *args):
        pass

    def do_GET(self):  # noqa: N802 (http.server's name)
        type(self).seen.append((self.path, self.headers.get("Authorization")))
        mode = type(self).mode
        if mode == "auth" and self.headers.get("Authorization") != "Basic " + \
                base64.b64encode(b"SYSPROG:s3cret").decode():
            return self._send(401, b"<html><title>401</title></html>", "text/html")
        if mode == "html":
            return self._send(200, b"<!DOCTYPE html><html><head><title>GPMSERVE is "
                                   b"starting</title></head></html>", "text/html")
        if mode == "500":
            return self._send(500, b"oops", "text/plain")
        if mode == "gpm":
            return self._send(200, GPM_ERROR)
        if mode == "slow":
            time.sleep(1.5)
        if mode == "cut":
            body = MANY[: len(MANY) // 2]
            self.send_response(200)
            self.send_header("Content-Length", str(len(MANY)))
            self.end_headers()
            self.wfile.write(body)
            self.wfile.flush()
            self.close_connection = True
            return
        self._send(200, MANY)

    def _send(self, code, body, ctype="application/xml"):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass        # a client that stops reading a reply too large for it (tested)


@pytest.fixture
def server():
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    _Handler.mode, _Handler.seen = "ok", []
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()


def _base(httpd, scheme="http"):
    return f"{scheme}://127.0.0.1:{httpd.server_address[1]}"


def test_the_reports_of_a_date_are_pulled_and_read(server, tmp_path):
    keep = tmp_path / "rmf.xml"
    system = dds.read_dds(_base(server), "20261125", keep=keep)
    assert system.interval.number == 3 and "busiest" in system.reason
    assert len(system.intervals) == 4
    path, auth = _Handler.seen[0]
    assert path == "/gpm/rmfpp.xml?reports=CACHE,DEVICE,CHAN,CPU,ESS&date=20261125"
    assert auth is None
    assert keep.read_bytes() == MANY


def test_the_user_and_password_go_in_the_header_never_the_url(server):
    _Handler.mode = "auth"
    with pytest.raises(RmfError, match="HTTP 401 Unauthorized: check the user"):
        dds.read_dds(_base(server), "20261125", user="SYSPROG", secret="wrong")
    system = dds.read_dds(_base(server), "20261125,20261126", user="SYSPROG", secret="s3cret")
    assert len(system.intervals) == 4
    assert all("s3cret" not in p for p, _ in _Handler.seen)
    with pytest.raises(RmfError, match="not in the address"):
        dds.read_dds(f"http://SYSPROG:s3cret@127.0.0.1:{server.server_address[1]}", "20261125")


def test_the_password_comes_from_the_environment_or_a_prompt():
    asked = []
    assert dds.password("SYSPROG", env={dds.PASSWORD_ENV: "fromenv"},
                        prompt=asked.append) == "fromenv"
    assert dds.password("SYSPROG", env={}, prompt=lambda p: asked.append(p) or "typed") == \
        "typed"
    assert asked == ["DDS password for SYSPROG: "]
    assert dds.password(None, env={}, prompt=asked.append) is None


@pytest.mark.parametrize("mode, message", [
    ("html", r"answered with an HTML page \(200, 'GPMSERVE is starting'\)"),
    ("500", "answered HTTP 500"),
    ("gpm", "answered with message GPM0739E: Invalid DDS request parameter 'DATE'"),
    ("cut", "cut off"),
])
def test_a_dds_error_gets_one_clear_message_and_nothing_is_saved(server, tmp_path, mode,
                                                                  message):
    _Handler.mode = mode
    keep = tmp_path / "rmf.xml"
    with pytest.raises(RmfError, match=message) as e:
        dds.read_dds(_base(server), "20261125", keep=keep)
    assert str(e.value).startswith(f"{_base(server)}/gpm/rmfpp.xml")
    assert list(tmp_path.iterdir()) == []


def test_a_dds_that_does_not_answer_in_time_or_at_all(server):
    _Handler.mode = "slow"
    t0 = time.monotonic()
    with pytest.raises(RmfError, match=r"did not answer in full within 0.3 s"):
        dds.read_dds(_base(server), "20261125", timeout=0.3)
    assert time.monotonic() - t0 < 1.4
    port = server.server_address[1]
    server.shutdown()
    server.server_close()
    with pytest.raises(RmfError, match="connection refused"):
        dds.read_dds(f"http://127.0.0.1:{port}", "20261125", timeout=2)


def test_a_bad_date_or_address_is_refused_before_any_request():
    with pytest.raises(RmfError, match="YYYYMMDD"):
        dds.report_url("https://dds:8803", "25.11.2026")
    with pytest.raises(RmfError, match="https://HOST:8803"):
        dds.report_url("dds:8803", "20261125")


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command")
def test_tls_is_verified_unless_told_otherwise(server, tmp_path):
    key, cert = tmp_path / "k.pem", tmp_path / "c.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True, timeout=60)
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)
    server.socket = ctx.wrap_socket(server.socket, server_side=True)
    with pytest.raises(RmfError, match="TLS certificate is not trusted"):
        dds.read_dds(_base(server, "https"), "20261125", timeout=5)
    system = dds.read_dds(_base(server, "https"), "20261125", verify=False, timeout=5)
    assert len(system.intervals) == 4

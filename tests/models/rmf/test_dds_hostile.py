"""The DDS client against a hostile server on 127.0.0.1: redirects elsewhere,
a drip of bytes, an endless answer. Each test is bounded in time."""
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
AUTH = "Basic " + base64.b64encode(b"SYSPROG:s3cret").decode()
#: How long a hostile handler keeps going at most (the client must stop first).
HANDLER_S = 8.0


class _Hostile(http.server.BaseHTTPRequestHandler):
    mode = "ok"
    location = ""
    seen: list = []

    def log_message(self, *args):
        pass

    def do_GET(self):  # noqa: N802 (http.server's name)
        type(self).seen.append((self.server.server_address[1], self.path,
                                self.headers.get("Authorization")))
        mode = type(self).mode
        try:
            if mode.startswith("redirect") and self.path.startswith("/gpm/rmfpp.xml?"):
                self.send_response(302)
                self.send_header("Location", type(self).location)
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif mode == "redirect-auth" and self.headers.get("Authorization") != AUTH:
                self._send(401, b"<html><title>401</title></html>")
            elif mode == "drip-body":
                self.send_response(200)
                self.send_header("Content-Length", str(len(MANY)))
                self.end_headers()
                self._drip(MANY)
            elif mode == "drip-head":
                self._drip(b"HTTP/1.1 200 OK\r\nX-Slow: " + b"a" * 10_000)
            elif mode == "endless":
                self.send_response(200)
                self.end_headers()
                end = time.monotonic() + HANDLER_S
                while time.monotonic() < end:
                    self.wfile.write(b"<ddsml>" * 8192)
            elif mode == "huge":
                self.send_response(200)
                self.send_header("Content-Length", str(10 ** 12))
                self.end_headers()
            else:
                self._send(200, MANY)
        except (BrokenPipeError, ConnectionResetError):
            pass                           # the client gave up, as it must

    def _drip(self, body: bytes):
        end = time.monotonic() + HANDLER_S
        for k in range(len(body)):
            if time.monotonic() > end:
                return
            self.wfile.write(body[k:k + 1])
            self.wfile.flush()
            time.sleep(0.2)

    def _send(self, code, body):
        self.send_response(code)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def _serve():
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Hostile)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


@pytest.fixture
def servers():
    _Hostile.mode, _Hostile.seen, _Hostile.location = "ok", [], ""
    a, b = _serve(), _serve()
    yield a, b
    for s in (a, b):
        s.shutdown()
        s.server_close()


def _url(httpd, scheme="http"):
    return f"{scheme}://127.0.0.1:{httpd.server_address[1]}"


def test_a_redirect_to_another_host_is_not_followed_and_gets_no_password(servers):
    a, b = servers
    _Hostile.mode, _Hostile.location = "redirect", f"{_url(b)}/gpm/rmfpp.xml?date=20261125"
    with pytest.raises(RmfError, match=r"redirected to another address \(http://127.0.0.1:"
                                       rf"{b.server_address[1]}\): not followed, and the user "
                                       "and password were not sent there"):
        dds.read_dds(_url(a), "20261125", user="SYSPROG", secret="s3cret", timeout=5)
    assert [port for port, _, _ in _Hostile.seen] == [a.server_address[1]]   # b: nothing


def test_a_redirect_on_the_same_host_is_followed_without_the_password(servers):
    a, _ = servers
    _Hostile.mode, _Hostile.location = "redirect", "/gpm/moved.xml?date=20261125"
    system = dds.read_dds(_url(a), "20261125", user="SYSPROG", secret="s3cret", timeout=5)
    assert len(system.intervals) == 4
    assert [(p, auth) for _, p, auth in _Hostile.seen] == [
        ("/gpm/rmfpp.xml?reports=CACHE,DEVICE,CHAN,CPU,ESS&date=20261125", AUTH),
        ("/gpm/moved.xml?date=20261125", None)]
    # a target that then asks for the password is told why it got none
    _Hostile.mode = "redirect-auth"
    _Hostile.seen = []
    _Hostile.location = "/gpm/moved.xml"
    with pytest.raises(RmfError, match="credentials are never sent after a redirect"):
        dds.read_dds(_url(a), "20261125", user="SYSPROG", secret="s3cret", timeout=5)


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command")
def test_a_redirect_from_https_to_http_is_not_followed(servers, tmp_path):
    a, _ = servers
    key, cert = tmp_path / "k.pem", tmp_path / "c.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True, timeout=60)
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)
    a.socket = ctx.wrap_socket(a.socket, server_side=True)
    _Hostile.mode, _Hostile.location = "redirect", f"{_url(a)}/gpm/rmfpp.xml?date=20261125"
    with pytest.raises(RmfError, match="redirected from https to http://127.0.0.1"):
        dds.read_dds(_url(a, "https"), "20261125", user="SYSPROG", secret="s3cret",
                     verify=False, timeout=5)
    assert len(_Hostile.seen) == 1


@pytest.mark.parametrize("mode", ["drip-body", "drip-head"])
def test_timeout_is_a_deadline_for_the_whole_answer(servers, tmp_path, mode):
    """A byte every 0.2 s keeps every read alive; the answer still ends at 1 s."""
    a, _ = servers
    _Hostile.mode = mode
    keep = tmp_path / "rmf.xml"
    t0 = time.monotonic()
    with pytest.raises(RmfError, match=r"did not answer in full within 1 s"):
        dds.read_dds(_url(a), "20261125", timeout=1, keep=keep)
    assert time.monotonic() - t0 < 2.5
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("timeout", [float("inf"), float("nan"), 0, -1])
def test_a_timeout_that_is_no_deadline_is_refused(timeout):
    with pytest.raises(ValueError, match="give a number of seconds, 0 < SECONDS <= 3600"):
        dds.read_dds("http://127.0.0.1:9", "20261125", timeout=timeout)


@pytest.mark.parametrize("mode", ["endless", "huge"])
def test_an_endless_answer_is_capped(servers, tmp_path, mode):
    a, _ = servers
    _Hostile.mode = mode
    t0 = time.monotonic()
    with pytest.raises(RmfError, match=r"the DDS answer passed 1 MB, the most zPerfLab "
                                       "takes"):
        dds.read_dds(_url(a), "20261125", timeout=5, max_bytes=2 ** 20,
                     keep=tmp_path / "rmf.xml")
    assert time.monotonic() - t0 < 4
    assert list(tmp_path.iterdir()) == []
    assert dds.MAX_BYTES == 256 * 2 ** 20        # the documented cap (docs/rmf-import.md)

"""Sends the HTTPS traffic of the real Python client libraries to the local protocol servers.

Loaded at interpreter start (this folder is on PYTHONPATH). It patches the two transports the
libraries really use, below any library code:
- httpx2's HTTPTransport (huggingface_hub 2.0.0 and openai 3.22.1 send every request through it):
  an https:// request to a remote host is sent to http://MODELHUB_REDIRECT instead, with its Host
  header (the original host) unchanged;
- urllib3's HTTPSConnection (requests): the connection is opened to MODELHUB_REDIRECT as plain TCP,
  so the request line and Host header are those of the original URL.
Each request also carries `x-modelhub-run: <current snippet id>` so the servers can attribute it.
"""

import os
import socket

_TARGET_HOST, _, _TARGET_PORT = os.environ.get("MODELHUB_REDIRECT", "").rpartition(":")
_LOCAL = {"127.0.0.1", "localhost", "::1"}
_RUN_HEADER = "x-modelhub-run"
_current = {"run": ""}


def set_run(run_id):
    """Names the snippet whose requests follow."""
    _current["run"] = run_id


def _redirects(host):
    return bool(_TARGET_HOST) and host not in _LOCAL


def _patch_httpx2():
    try:
        import httpx2
        from httpx2._transports.default import AsyncHTTPTransport, HTTPTransport
    except ImportError:
        return

    def redirected(request):
        if request.url.scheme != "https" or not _redirects(request.url.host):
            return None
        request.headers[_RUN_HEADER] = _current["run"]
        return request.url, request.url.copy_with(scheme="http", host=_TARGET_HOST, port=int(_TARGET_PORT))

    send = HTTPTransport.handle_request

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        urls = redirected(request)
        if urls is None:
            return send(self, request)
        # The transport reads the URL once to build the wire request; the caller keeps its own URL.
        request.url = urls[1]
        try:
            return send(self, request)
        finally:
            request.url = urls[0]

    HTTPTransport.handle_request = handle_request

    send_async = AsyncHTTPTransport.handle_async_request

    async def handle_async_request(self, request):
        urls = redirected(request)
        if urls is None:
            return await send_async(self, request)
        request.url = urls[1]
        try:
            return await send_async(self, request)
        finally:
            request.url = urls[0]

    AsyncHTTPTransport.handle_async_request = handle_async_request


def _patch_urllib3():
    try:
        import urllib3.connection as connection
    except ImportError:
        return

    connect = connection.HTTPSConnection.connect
    request = connection.HTTPSConnection.request

    def redirected_connect(self):
        if not _redirects(self.host):
            return connect(self)
        self.sock = socket.create_connection((_TARGET_HOST, int(_TARGET_PORT)), self.timeout)
        # The local server stands in for the provider, so there is no certificate to check.
        self.is_verified = True
        self._has_connected_to_proxy = False

    def tagged_request(self, method, url, body=None, headers=None, **kwargs):
        if _redirects(self.host):
            headers = {**(headers or {}), _RUN_HEADER: _current["run"]}
        return request(self, method, url, body=body, headers=headers, **kwargs)

    connection.HTTPSConnection.connect = redirected_connect
    connection.HTTPSConnection.request = tagged_request


if _TARGET_HOST:
    _patch_httpx2()
    _patch_urllib3()

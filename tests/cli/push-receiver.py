# SPDX-License-Identifier: LGPL-2.1-or-later
"""A Pyroscope-style /ingest receiver on 127.0.0.1 for tests/cli/test-push.sh.

push-receiver.py DIR PORT [silent]: serves POST /ingest until killed, saving each
request's query as DIR/N.query (one key=value a line, decoded) and the
multipart form field "profile" as DIR/N.pb.gz; anything else is 400.
PORT 0 takes a free port; the port is written to DIR/port once listening.
With "silent", requests are read and never answered (an endpoint that hangs).
"""
import os
import sys
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def multipart_field(body, ctype, name):
    params = dict(p.strip().split("=", 1) for p in ctype.split(";")[1:] if "=" in p)
    boundary = params.get("boundary", "").strip('"').encode()
    if not boundary:
        return None
    for part in body.split(b"--" + boundary):
        head, sep, data = part.partition(b"\r\n\r\n")
        if sep and ('name="%s"' % name).encode() in head:
            return data[:-2] if data.endswith(b"\r\n") else data
    return None


class Ingest(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):
        url = urllib.parse.urlsplit(self.path)
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.server.silent:
            time.sleep(60)
            return
        prof = multipart_field(body, self.headers.get("Content-Type", ""), "profile")
        if url.path != "/ingest" or prof is None:
            self.send_response(400)
            self.end_headers()
            return
        d = self.server.dir
        n = len([f for f in os.listdir(d) if f.endswith(".query")])
        with open(os.path.join(d, "%d.pb.gz" % n), "wb") as f:
            f.write(prof)
        with open(os.path.join(d, "%d.query" % n), "w") as f:
            for k, v in urllib.parse.parse_qsl(url.query):
                f.write("%s=%s\n" % (k, v))
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()


def main():
    d, port = sys.argv[1], int(sys.argv[2])
    srv = ThreadingHTTPServer(("127.0.0.1", port), Ingest)
    srv.daemon_threads = True
    srv.dir = d
    srv.silent = sys.argv[3:] == ["silent"]
    with open(os.path.join(d, "port.tmp"), "w") as f:
        f.write("%d\n" % srv.server_address[1])
    os.rename(os.path.join(d, "port.tmp"), os.path.join(d, "port"))
    srv.serve_forever()


if __name__ == "__main__":
    main()

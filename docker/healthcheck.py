"""Docker HEALTHCHECK for the web container: GET /healthz on the local web server, exit 0 only on 200.

No curl in the slim image, so this uses urllib. Django rejects a Host header that is not in
ALLOWED_HOSTS (400) and, with SECURE_SSL_REDIRECT on, redirects plain HTTP (301); so the request
carries the first ALLOWED_HOSTS entry as Host and ``X-Forwarded-Proto: https``, which settings trust
through SECURE_PROXY_SSL_HEADER. Standard library only: it must not import Django.
"""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request

URL = "http://127.0.0.1:8000/healthz"
TIMEOUT_SECONDS = 8


def host_header() -> str:
    for entry in os.environ.get("ALLOWED_HOSTS", "").split(","):
        entry = entry.strip().lstrip(".")  # ".example.org" allows example.org and its subdomains
        if entry and entry != "*":
            return entry
    return "localhost"  # in settings' default list, and accepted by "*"


def main() -> int:
    request = urllib.request.Request(URL, headers={"Host": host_header(), "X-Forwarded-Proto": "https"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:
            body = response.read(2000).decode("utf-8", "replace")
            status = response.status
    except urllib.error.HTTPError as exc:  # 503 from /healthz: the body names what is failing
        print(f"unhealthy: HTTP {exc.code} {exc.read(2000).decode('utf-8', 'replace')}")
        return 1
    except (urllib.error.URLError, OSError) as exc:
        print(f"unhealthy: {exc}")
        return 1
    print(f"HTTP {status} {body}")
    return 0 if status == 200 else 1


if __name__ == "__main__":
    sys.exit(main())

"""gunicorn's settings, read by gunicorn itself from the working directory (the project root, and
/app in the image), so the README's command, the Docker image and the load benchmark run one way.

Threaded workers (``gthread``) rather than sync ones: when pairings go up, a hall of phones on
slow Wi-Fi holds connections open, and a sync worker is blocked by each one (and closes every
connection after one answer, so each page view pays a new TCP connection). With threads, a
connection is kept alive between a phone's requests and a slow reader costs a thread, not a
process. Measured in bench/README.md: the public pairings page at 1,000 teams serves about twice as
many requests a second on the same two cores as with 4 sync workers.

``WEB_CONCURRENCY`` (processes, read by gunicorn) and ``GUNICORN_THREADS`` (threads per process)
size it; each thread may hold one database connection, so PostgreSQL's ``max_connections`` must
cover processes × threads of every web instance, plus the workers.
"""

import os

worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "8"))
# Longer than a phone's polling interval (static/js/public_live.js asks every 3 s), so an open page
# keeps its connection.
keepalive = 5

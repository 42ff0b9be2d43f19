"""gunicorn's settings, read by gunicorn itself from the working directory (the project root, and
/app in the image), so the README's command, the Docker image and the load benchmark run one way.

Threaded workers (``gthread``) rather than sync ones: when pairings go up, a hall of phones on
slow Wi-Fi reads its pages slowly, and a sync worker is held by each slow reader for as long as it
takes (gunicorn's sync workers expect a buffering proxy in front of them, which a store's laptop or
a small server often lacks); a threaded worker keeps connections alive between a phone's polls and
a slow reader holds one thread, not a process. On two idle cores with a fast local client the two
serve the cached public pages alike (bench/README.md: pairings page 782 req/s with 4 processes of 4
threads, 731 with 4 sync workers), and the uncached API answers twice as fast threaded. More than 4
threads a process did worse: a process's threads share its interpreter lock.

``WEB_CONCURRENCY`` (processes, read by gunicorn) and ``GUNICORN_THREADS`` (threads per process)
size it; each thread may hold one database connection, so PostgreSQL's ``max_connections`` must
cover processes × threads of every web instance, plus the workers.
"""

import os

worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
# Longer than a phone's polling interval (static/js/public_live.js asks every 3 s), so an open page
# keeps its connection.
keepalive = 5

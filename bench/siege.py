"""A hall's congested Wi-Fi against one web server: idle and slow connections held open while
ordinary requests are timed.

``siege(host, port, ...)`` opens ``idle`` connections that send nothing and ``slow`` ones that send
a request line and then one header line every ``slow_interval`` seconds, never finishing; a
connection the server closes is opened again, so the pressure stays for the whole run. Meanwhile
it sends ``requests`` ordinary GETs, one after another, each on a new connection, and returns their
latencies and failures. Loopback only: the host must be a 127.x address (or one inside a network
namespace of the caller's own). Used by ``bench/bench_slow_clients.py`` and the reliability tests.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import statistics
import time
from dataclasses import dataclass, field


@dataclass
class SiegeResult:
    latencies: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    held_idle: int = 0
    held_slow: int = 0
    reopened: int = 0

    @property
    def p99(self) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))] if ordered else float("inf")

    @property
    def median(self) -> float:
        return statistics.median(self.latencies) if self.latencies else float("inf")


async def _hold(
    host: str, port: int, *, slow: bool, interval: float, stop: asyncio.Event, result: SiegeResult
):
    """One besieging connection, reopened whenever the server drops it, until ``stop``."""
    first = True
    while not stop.is_set():
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), 10)
        except (TimeoutError, OSError):
            await asyncio.sleep(0.5)
            continue
        if first:
            if slow:
                result.held_slow += 1
            else:
                result.held_idle += 1
            first = False
        else:
            result.reopened += 1
        try:
            if slow:
                writer.write(f"GET /healthz HTTP/1.1\r\nHost: {host}\r\n".encode())
            line = 0
            while not stop.is_set():
                try:
                    data = await asyncio.wait_for(reader.read(4096), interval if slow else 1.0)
                except TimeoutError:
                    data = None
                if data == b"":
                    break
                if slow and data is None:
                    line += 1
                    writer.write(f"X-Slow-{line}: {line}\r\n".encode())
                    await writer.drain()
        except OSError:
            pass
        finally:
            writer.close()


async def _get(host: str, port: int, path: str, host_header: str, timeout: float) -> tuple[float, str | None]:
    started = time.perf_counter()
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
        try:
            writer.write(f"GET {path} HTTP/1.1\r\nHost: {host_header}\r\nConnection: close\r\n\r\n".encode())
            await writer.drain()
            body = await asyncio.wait_for(reader.read(), timeout - (time.perf_counter() - started))
        finally:
            writer.close()
    except (TimeoutError, OSError) as error:
        return time.perf_counter() - started, f"{path}: {type(error).__name__} {error}".strip()
    status = body.split(b"\r\n", 1)[0].decode(errors="replace")
    elapsed = time.perf_counter() - started
    return elapsed, None if status.split(" ")[1:2] == ["200"] else f"{path}: {status or 'empty answer'}"


async def _siege(
    host: str,
    port: int,
    *,
    idle: int,
    slow: int,
    slow_interval: float,
    paths: list[str],
    requests: int,
    pause: float,
    settle: float,
    timeout: float,
    host_header: str,
) -> SiegeResult:
    result = SiegeResult()
    stop = asyncio.Event()
    holders = [
        asyncio.create_task(_hold(host, port, slow=False, interval=slow_interval, stop=stop, result=result))
        for _ in range(idle)
    ] + [
        asyncio.create_task(_hold(host, port, slow=True, interval=slow_interval, stop=stop, result=result))
        for _ in range(slow)
    ]
    await asyncio.sleep(settle)
    for number in range(requests):
        elapsed, failure = await _get(host, port, paths[number % len(paths)], host_header, timeout)
        result.latencies.append(elapsed)
        if failure:
            result.failures.append(failure)
        await asyncio.sleep(pause)
    stop.set()
    for holder in holders:
        holder.cancel()
    await asyncio.gather(*holders, return_exceptions=True)
    return result


def siege(
    host: str,
    port: int,
    *,
    idle: int = 1000,
    slow: int = 300,
    slow_interval: float = 5.0,
    paths: list[str] | None = None,
    requests: int = 60,
    pause: float = 0.25,
    settle: float = 6.0,
    timeout: float = 5.0,
    host_header: str | None = None,
) -> SiegeResult:
    """Hold ``idle`` + ``slow`` connections open (``settle`` seconds first, so every slow one has
    sent a header line), then time ``requests`` GETs of ``paths`` in turn (``timeout`` each)."""
    return _run_in_own_loop(
        _siege(
            host,
            port,
            idle=idle,
            slow=slow,
            slow_interval=slow_interval,
            paths=paths or ["/healthz"],
            requests=requests,
            pause=pause,
            settle=settle,
            timeout=timeout,
            host_header=host_header or f"{host}:{port}",
        )
    )


def _run_in_own_loop(coroutine):
    """``asyncio.run`` refuses a thread whose loop is running (Playwright's sync API leaves one in a
    test process that ran a browser test): the siege then gets a thread and a loop of its own."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()

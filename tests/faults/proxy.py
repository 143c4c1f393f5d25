"""A TCP proxy between the stack and its Redis that can CUT the network or STALL it (issue 28).

- ``cut()``: every connection through it is reset, and a new one is accepted and closed at once: Redis
  looks gone (a crash, a refused connection).
- ``stall()``: a network partition. Connections stay open and new ones are accepted, but nothing is
  forwarded either way: every byte is held, no error comes, a client waits until its own timeout.
- ``heal()``: forwarding resumes; what was held while stalled is delivered, as TCP would after a
  partition shorter than its retransmission timeout. A connection a client closed meanwhile is closed
  towards Redis too.

It runs an asyncio loop on a thread of its own, so a test drives it from plain code.
"""

from __future__ import annotations

import asyncio
import socket
import threading

from smashup.core.launcher import free_port

CHUNK = 65536


class RedisProxy:
    def __init__(self, upstream_port: int, host: str = "127.0.0.1"):
        self.host = host
        self.upstream_port = upstream_port
        self.port = free_port(host)
        self.url = f"redis://{host}:{self.port}/0"
        self.mode = "pass"
        self.accepted = 0
        self._loop = asyncio.new_event_loop()
        self._flowing: asyncio.Event | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._server: asyncio.AbstractServer | None = None
        self._thread = threading.Thread(target=self._loop.run_forever, name="redis-proxy", daemon=True)

    # ------------------------------------------------------------------ control (any thread) ----
    def start(self) -> None:
        self._thread.start()
        self._call(self._open)

    def stop(self) -> None:
        self._call(self._close)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)

    def cut(self) -> None:
        self._call(self._set, "cut")

    def stall(self) -> None:
        self._call(self._set, "stall")

    def heal(self) -> None:
        self._call(self._set, "pass")

    def _call(self, fn, *args):
        async def run():
            return await fn(*args)

        return asyncio.run_coroutine_threadsafe(run(), self._loop).result(10)

    # ------------------------------------------------------------------ the loop ----------------
    async def _open(self) -> None:
        self._flowing = asyncio.Event()
        self._flowing.set()
        self._server = await asyncio.start_server(self._client, self.host, self.port, reuse_address=True)

    async def _close(self) -> None:
        if self._server is not None:
            self._server.close()
        self._reset_all()
        for task in asyncio.all_tasks():
            if task is not asyncio.current_task():
                task.cancel()

    async def _set(self, mode: str) -> None:
        self.mode = mode
        if mode == "pass":
            self._flowing.set()
            return
        self._flowing.clear()
        if mode == "cut":
            self._reset_all()

    def _reset_all(self) -> None:
        for writer in list(self._writers):
            _reset(writer)
        self._writers.clear()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.accepted += 1
        if self.mode == "cut":
            _reset(writer)
            return
        self._writers.add(writer)
        upstream_writer = None
        try:
            await self._flowing.wait()  # a partition holds even the connection's first bytes
            if self.mode == "cut":
                return
            upstream_reader, upstream_writer = await asyncio.open_connection(self.host, self.upstream_port)
            self._writers.add(upstream_writer)
            await asyncio.gather(
                self._pump(reader, upstream_writer),
                self._pump(upstream_reader, writer),
                return_exceptions=True,
            )
        except OSError:
            pass
        finally:
            for w in (writer, upstream_writer):
                if w is not None:
                    self._writers.discard(w)
                    _reset(w)

    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while True:
            data = await reader.read(CHUNK)
            if not data:
                break
            await self._flowing.wait()  # held while stalled
            if self.mode == "cut" or writer.is_closing():
                break
            writer.write(data)
            await writer.drain()
        # One side closed: close the other (at once when cut; after the partition when stalled).
        await self._flowing.wait()
        _reset(writer)


def _reset(writer: asyncio.StreamWriter) -> None:
    """Close with a reset (no goodbye), as a lost peer looks."""
    sock = writer.get_extra_info("socket")
    try:
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    except OSError:
        pass
    writer.close()

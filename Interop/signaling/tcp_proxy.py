#!/usr/bin/env python3
"""A TCP forwarder for the signaling-outage scenario: 127.0.0.1:LISTEN -> 127.0.0.1:TARGET.

Killing it (SIGKILL) drops every connection through it at once, as a dead network path or a
load balancer losing its state would; starting it again on the same port brings the path back.

    tcp_proxy.py LISTEN TARGET
"""
import asyncio
import sys


async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, asyncio.CancelledError):
        pass
    finally:
        writer.close()


async def main(listen: int, target: int) -> None:
    async def handle(client_reader, client_writer):
        try:
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", target)
        except OSError:
            client_writer.close()
            return
        await asyncio.gather(pipe(client_reader, server_writer), pipe(server_reader, client_writer))

    server = await asyncio.start_server(handle, "127.0.0.1", listen, reuse_address=True)
    print(f"forwarding 127.0.0.1:{listen} -> 127.0.0.1:{target}", flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), int(sys.argv[2])))

"""aiortc side of the live interop check: RTCSctpTransport (DTLS server role) over UDP,
echoing every message on channels the Swift side opens; opens one channel of its own."""
import asyncio
import os
import random
import sys

LOSS = float(os.environ.get("LOSS", "0"))

from aiortc.rtcdatachannel import RTCDataChannel, RTCDataChannelParameters
from aiortc.rtcsctptransport import RTCSctpCapabilities, RTCSctpTransport


class UdpDtls:
    def __init__(self):
        self._role = "server"
        self.state = "connected"
        self.receiver = None
        self.udp = None

    def _register_data_receiver(self, receiver):
        self.receiver = receiver

    def _unregister_data_receiver(self, receiver):
        self.receiver = None

    async def _send_data(self, data):
        if random.random() >= LOSS:
            self.udp.sendto(bytes(data))


class Proto(asyncio.DatagramProtocol):
    def __init__(self, dtls):
        self.dtls = dtls

    def datagram_received(self, data, addr):
        if self.dtls.receiver is not None:
            asyncio.ensure_future(self.dtls.receiver._handle_data(data))


async def main(local_port, remote_port):
    loop = asyncio.get_running_loop()
    dtls = UdpDtls()
    transport, _ = await loop.create_datagram_endpoint(lambda: Proto(dtls), local_addr=("127.0.0.1", local_port),
                                                       remote_addr=("127.0.0.1", remote_port))
    dtls.udp = transport
    sctp = RTCSctpTransport(dtls)
    closed = asyncio.Event()
    stats = {"echoed": 0}

    lossy_received = []

    def on_channel(channel):
        print(f"aiortc: channel opened label={channel.label} protocol={channel.protocol} id={channel.id}", flush=True)
        if channel.label == "lossy-to-aiortc":
            channel.on("message", lambda m: lossy_received.append(m))
            return

        def on_message(m):
            stats["echoed"] += 1
            channel.send(m)

        channel.on("message", on_message)
        channel.on("close", lambda: closed.set())

    sctp.on("datachannel", on_channel)
    await sctp.start(RTCSctpCapabilities(maxMessageSize=1024 * 1024), 5000)
    for _ in range(500):
        if sctp.state == "connected":
            break
        await asyncio.sleep(0.01)
    own = RTCDataChannel(sctp, RTCDataChannelParameters(label="from-aiortc"))
    own.on("open", lambda: own.send("hello from aiortc"))
    lossy = RTCDataChannel(sctp, RTCDataChannelParameters(label="lossy-from-aiortc", ordered=False, maxRetransmits=0))

    def send_lossy():
        for i in range(300):
            lossy.send(b"lossy-%d" % i)

    lossy.on("open", send_lossy)
    try:
        await asyncio.wait_for(closed.wait(), 30)
        print(f"aiortc: channel closed by Swift side after echoing {stats['echoed']} messages", flush=True)
        await asyncio.sleep(1.0)
        print(f"aiortc: lossy-to-aiortc received {len(lossy_received)}/300, distinct {len(set(lossy_received))}", flush=True)
    except asyncio.TimeoutError:
        print("aiortc: timed out", flush=True)
    await asyncio.sleep(0.5)
    await sctp.stop()


asyncio.run(main(int(sys.argv[1]), int(sys.argv[2])))

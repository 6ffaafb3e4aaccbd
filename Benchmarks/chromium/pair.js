// Chromium's side of two benchmark rows (Benchmarks/chromium/pair_bench.py, issue #12): two
// RTCPeerConnections in one page, candidates relayed in the page (with loopbackOnly=1 only
// 127.0.0.1, as Tern's DCThroughput uses), measured the way Tern's Benchmarks/DCThroughput does:
//   setup: createOffer → the data channel open on both sides, fresh connections each run;
//   throughput: BYTES in 64 KiB binary messages, reliable and ordered, first send → last byte in.
// Query: setupRuns=N throughputRuns=N bytes=B loopbackOnly=1. POSTs {setupMs: [...], throughputMBps: [...]}.
'use strict';
const q = new URLSearchParams(location.search);
const setupRuns = +(q.get('setupRuns') || 10), throughputRuns = +(q.get('throughputRuns') || 3);
const BYTES = +(q.get('bytes') || 64 * 1024 * 1024), MESSAGE = 64 * 1024;
const loopbackOnly = q.get('loopbackOnly') === '1';

async function connectedPair() {
  const a = new RTCPeerConnection(), b = new RTCPeerConnection();
  const relay = (from, to) => {
    from.onicecandidate = e => {
      if (e.candidate && loopbackOnly && !/ 127\.0\.0\.1 /.test(e.candidate.candidate)) return;
      to.addIceCandidate(e.candidate || null).catch(() => {});
    };
  };
  relay(a, b); relay(b, a);
  const start = performance.now();
  const sender = a.createDataChannel('bench');
  sender.binaryType = 'arraybuffer';
  const senderOpen = new Promise(resolve => { sender.onopen = resolve; });
  const receiverOpen = new Promise(resolve => {
    b.ondatachannel = e => {
      const channel = e.channel;
      channel.binaryType = 'arraybuffer';
      if (channel.readyState === 'open') resolve(channel); else channel.onopen = () => resolve(channel);
    };
  });
  const offer = await a.createOffer();
  await a.setLocalDescription(offer);
  await b.setRemoteDescription(offer);
  const answer = await b.createAnswer();
  await b.setLocalDescription(answer);
  await a.setRemoteDescription(answer);
  const [receiver] = await Promise.all([receiverOpen, senderOpen]);
  return { a, b, sender, receiver, setupMs: performance.now() - start };
}

async function throughput(sender, receiver) {
  const payload = new Uint8Array(MESSAGE);
  let received = 0;
  const done = new Promise(resolve => {
    receiver.onmessage = e => { received += e.data.byteLength; if (received >= BYTES) resolve(); };
  });
  sender.bufferedAmountLowThreshold = 1 << 20;
  const start = performance.now();
  for (let sent = 0; sent < BYTES; sent += MESSAGE) {
    if (sender.bufferedAmount > 8 << 20) {
      await new Promise(resolve => { sender.onbufferedamountlow = resolve; });
    }
    sender.send(payload);
  }
  await done;
  return BYTES / 1e6 / ((performance.now() - start) / 1000);
}

(async () => {
  const result = { userAgent: navigator.userAgent, setupMs: [], throughputMBps: [], errors: [] };
  try {
    // Without a media permission Chromium gathers only on the default route's interface, which
    // a namespace with only `lo` does not have; with it (fake device and UI), on every adapter,
    // loopback included (--allow-loopback-in-peer-connection). The tracks are stopped at once.
    (await navigator.mediaDevices.getUserMedia({ audio: true })).getTracks().forEach(t => t.stop());
    for (let i = 0; i < setupRuns; i++) {
      const pair = await connectedPair();
      result.setupMs.push(pair.setupMs);
      pair.a.close(); pair.b.close();
    }
    for (let i = 0; i < throughputRuns; i++) {
      const pair = await connectedPair();
      result.throughputMBps.push(await throughput(pair.sender, pair.receiver));
      pair.a.close(); pair.b.close();
    }
  } catch (e) {
    result.errors.push(String(e));
  }
  await fetch('/result', { method: 'POST', body: JSON.stringify(result) });
})();

// One side of a two-process data-channel benchmark in a headless Chromium (issue #20): the same
// signals as Tern's Benchmarks/DCThroughput parent and child (BenchPeerSupport/SignalPipe.swift),
// relayed by Benchmarks/chromium/dc_bridge.py (in: an EventSource on /events, out: POST /signal).
//   role=child   answers one offer per run with a fresh RTCPeerConnection: says `ready`, reports
//                its channel's `open` and, after BYTES, `done` (time of the last byte, bytes, messages).
//   role=parent  offers and sends, measured as DCThroughput measures: setup = createOffer → the
//                channel open on both sides (the later of the two); throughput = BYTES in 64 KiB
//                binary messages, reliable and ordered, bufferedAmount kept under 4 MiB (threshold
//                1 MiB), first send → the child's last byte. Posts {setupMs, throughputMBps} to /result.
// Times travel as ms of performance.timeOrigin + performance.now(); the bridge turns them into the
// CLOCK_MONOTONIC seconds Tern's and aiortc's processes use, and back.
// Query: role=parent|child  throughputRuns=N, then runs=N set-up-only runs; the set-ups of all but
//        the first warmUp=N runs are the set-up figure
//        bytes=B  loopbackOnly=1 (gather on lo: media permission, only 127.0.0.1 candidates)
//        trace=1  (DCBENCH_TRACE set for dc_bridge.py) each set-up phase on the bridge's stderr,
//                 ms on the page's clock, as DCThroughput's DCBENCH_TRACE lines are on Tern's
'use strict';
const q = new URLSearchParams(location.search);
const role = q.get('role') || 'child';
const runs = +(q.get('runs') || 10), warmUp = +(q.get('warmUp') || 1), throughputRuns = +(q.get('throughputRuns') || 0);
const BYTES = +(q.get('bytes') || 64 * 1024 * 1024), MESSAGE = 64 * 1024, HIGH = 4 << 20, LOW = 1 << 20;
const loopbackOnly = q.get('loopbackOnly') === '1';
const now = () => performance.timeOrigin + performance.now();
const tracing = q.get('trace') === '1';
const mark = what => { if (tracing) post('/log', { line: `${now().toFixed(1)} ms ${role} ${what}` }); };

const errors = [];
function fail(message) { errors.push(String(message)); post('/log', { line: 'ERROR ' + message }); }
function post(path, body) {
  return fetch(path, { method: 'POST', body: JSON.stringify(body) }).catch(() => {});
}
const signal = message => post('/signal', message);

// Incoming signals are handled one after the other, by the handler of the run in progress;
// those that arrive between runs (the child's `ready` for the next one) wait for the next handler.
let handler = null, chain = Promise.resolve();
const pending = [];
function deliver(message) {
  if (!handler) { pending.push(message); return; }
  const handle = handler;
  chain = chain.then(() => handle(message)).catch(e => fail(`${message.type}: ${e}`));
}
function setHandler(handle) {
  handler = handle;
  while (handler && pending.length) deliver(pending.shift());
}

function newConnection(onSignalled) {
  const pc = new RTCPeerConnection();
  if (tracing) {
    pc.oniceconnectionstatechange = () => mark(`ice ${pc.iceConnectionState}`);
    pc.onconnectionstatechange = () => mark(`connection ${pc.connectionState}`);
    pc.onsignalingstatechange = () => {
      mark(`signaling ${pc.signalingState}`);
      const dtls = pc.sctp && pc.sctp.transport;
      if (dtls && !dtls.onstatechange) dtls.onstatechange = () => mark(`dtls ${dtls.state}`);
    };
  }
  let described = false;
  const held = [];
  // Candidates leave after the description that they belong to (JSEP order), as DCThroughput does.
  pc.onicecandidate = e => {
    let message;
    if (!e.candidate) message = { type: 'end-of-candidates' };
    else if (loopbackOnly && !/ 127\.0\.0\.1 /.test(e.candidate.candidate)) return;
    else message = { type: 'candidate', candidate: e.candidate.toJSON() };
    if (described) signal(message); else held.push(message);
  };
  onSignalled.release = () => { described = true; held.splice(0).forEach(signal); };
  return pc;
}

async function apply(pc, message) {
  // A candidate that reaches a connection without a remote description was trickled by the
  // previous run's connection after its `bye` (Tern's and aiortc's processes drop those too).
  if (!pc.remoteDescription) return;
  if (message.type === 'candidate') await pc.addIceCandidate(message.candidate).catch(e => fail(`addIceCandidate: ${e}`));
  else if (message.type === 'end-of-candidates') await pc.addIceCandidate(null).catch(() => {});
}

// ---------- child ----------
function child() {
  return new Promise(finish => {
    let hooks, pc, expected = 0;
    const fresh = () => {
      hooks = {};
      pc = newConnection(hooks);
      expected = 0;
      let received = 0, messages = 0;
      pc.ondatachannel = e => {
        const channel = e.channel;
        channel.binaryType = 'arraybuffer';
        const opened = () => { mark('channel open'); signal({ type: 'open', time: now() }); };
        if (channel.readyState === 'open') opened(); else channel.onopen = opened;
        channel.onmessage = m => {
          received += m.data.byteLength ?? m.data.length;
          messages += 1;
          if (expected > 0 && received >= expected) {
            signal({ type: 'done', time: now(), bytes: received, messages });
            expected = 0;
          }
        };
      };
      signal({ type: 'ready' });
    };
    fresh();
    setHandler(async message => {
      if (message.type !== 'bye') mark(`got ${message.type}`);
      if (message.type === 'offer') {
        expected = message.bytes || 0;
        await pc.setRemoteDescription({ type: 'offer', sdp: message.sdp });
        await pc.setLocalDescription(await pc.createAnswer());
        signal({ type: 'answer', sdp: pc.localDescription.sdp });
        hooks.release();
      } else if (message.type === 'bye') {
        pc.close();
        fresh();
      } else if (message.type === 'exit') {
        pc.close();
        finish();
      } else {
        await apply(pc, message);
      }
    });
  });
}

// ---------- parent ----------
async function parentRun(bytes) {
  const hooks = {};
  const pc = newConnection(hooks);
  const channel = pc.createDataChannel('bench', { ordered: true });
  channel.binaryType = 'arraybuffer';
  channel.bufferedAmountLowThreshold = LOW;
  const opened = new Promise(resolve => { channel.onopen = () => { mark('channel open'); resolve(now()); }; });
  let childReady, childOpened, childDone;
  const ready = new Promise(resolve => { childReady = resolve; });
  const childOpen = new Promise(resolve => { childOpened = resolve; });
  const done = new Promise(resolve => { childDone = resolve; });
  setHandler(async message => {
    if (message.type !== 'ready') mark(`got ${message.type}`);
    if (message.type === 'ready') childReady();
    else if (message.type === 'answer') await pc.setRemoteDescription({ type: 'answer', sdp: message.sdp });
    else if (message.type === 'open') childOpened(message.time);
    else if (message.type === 'done') childDone(message);
    else await apply(pc, message);
  });
  await ready;
  const start = now();
  mark('createOffer');
  await pc.setLocalDescription(await pc.createOffer());
  signal({ type: 'offer', sdp: pc.localDescription.sdp, bytes });
  hooks.release();
  const [mine, theirs] = await Promise.all([opened, childOpen]);
  const result = { setupMs: Math.max(mine, theirs) - start };
  if (bytes > 0) {
    const payload = new Uint8Array(MESSAGE);
    const sendStart = now();
    for (let sent = 0; sent < bytes; sent += MESSAGE) {
      if (channel.bufferedAmount > HIGH) await new Promise(resolve => { channel.onbufferedamountlow = resolve; });
      channel.send(sent + MESSAGE <= bytes ? payload : payload.subarray(0, bytes - sent));
    }
    const last = await done;
    if (last.bytes !== bytes) fail(`the child received ${last.bytes} bytes, not ${bytes}`);
    result.throughputMBps = bytes / 1e6 / ((last.time - sendStart) / 1000);
  }
  setHandler(null);
  signal({ type: 'bye' });
  pc.close();
  return result;
}

async function parent() {
  const result = { userAgent: navigator.userAgent, setupMs: [], throughputMBps: [] };
  // Every run's set-up counts but the first warmUp of the browser pair (throughput runs first).
  let index = 0;
  const record = run => { if (index++ >= warmUp) result.setupMs.push(run.setupMs); return run; };
  for (let i = 0; i < throughputRuns; i++) {
    result.throughputMBps.push(record(await parentRun(BYTES)).throughputMBps);
  }
  for (let i = 0; i < runs; i++) record(await parentRun(0));
  signal({ type: 'exit' });
  result.errors = errors;
  await post('/result', result);
}

(async () => {
  try {
    // Without a media permission Chromium gathers only on the default route's interface, which a
    // namespace with only `lo` does not have (Benchmarks/chromium/pair.js says the same).
    if (loopbackOnly) (await navigator.mediaDevices.getUserMedia({ audio: true })).getTracks().forEach(t => t.stop());
    const events = new EventSource('/events');
    events.onmessage = e => deliver(JSON.parse(e.data));
    await new Promise(resolve => { events.onopen = resolve; });
    if (role === 'parent') await parent(); else await child();
  } catch (e) {
    fail(e);
    await post('/result', { errors });
  }
  await post('/finished', {});
})();

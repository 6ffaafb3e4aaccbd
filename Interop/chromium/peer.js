// Tern interop peer for Chromium: speaks signaling protocol v1 (Docs/SIGNALING.md) from
// JavaScript with RTCPeerConnection, calls or answers one call against `tern peer`, runs the
// checks asked for in the URL query, and POSTs one result object to /result on this origin.
//
// Query parameters:
//   sig=ws://127.0.0.1:PORT/v1   signaling URL            user=NAME     our user id
//   call=OTHER | answer=1        call OTHER, or answer the first invite
//   firstAnswer=1                with call=A,B,C: ring them all, the first to accept has the call
//                                (Docs/SIGNALING.md "First answer wins": then a one-to-one call)
//   audio=1 video=1 data=1       media we send / ask for (fake devices)
//   echo=1                       echo every message on channels the remote opens (not manage-call)
//   ternEcho=N                   the remote runs an echo run of N messages on 'tern-data': done when N came
//   dcCount=N                    our own echo test: N messages 1 B … 64 KiB, string/binary alternating
//   dcExtra=1                    plus an unordered and a maxRetransmits:0 channel, 200 messages each,
//                                and one message at the remote's a=max-message-size
//   dcMax=1                      only the message at the remote's a=max-message-size (as Tern's echo run)
//   tone=HZ                      the tone we expect from the remote (audio)
//   mediaMs=MS                   how long to keep media running once connected (then finish)
//   envelopes=1                  send manage-call envelopes (sendMessage …) once manage-call is open
//   mode=normal|reject|ring|cancel|hangupAfter   lifecycle variant (see run-matrix)
//   cancelAfterMs=MS             with mode=cancel (caller): cancel this long after the invite (0: at once)
//   holdMs=MS                    with mode=hangupAfter: hang up this long after connecting
//   waitRunner=1                 before hanging up, poll GET /ready until the runner says Tern's echo run is over
//   finishBy=hangup|wait         after the checks: hang up ourselves, or wait for the remote's hangup
//   statsMs=MS                   every MS ms once the call is placed or answered, POST /stats one
//                                {t, report} line in W3C names (t: ms since the invite), as
//                                `tern peer --stats-interval` writes them (Benchmarks/congestion)
//   acceptVideo=1                answer a videoRequest on manage-call by accepting it (mirrored mode), and
//                                send the fake camera on a video section a re-offer adds (Docs/MANAGE-CALL.md)
'use strict';

const q = new URLSearchParams(location.search);
const P = {
  sig: q.get('sig'), user: q.get('user') || 'chrome', call: q.get('call'), answer: q.get('answer') === '1',
  audio: q.get('audio') === '1', video: q.get('video') === '1', data: q.get('data') === '1',
  echo: q.get('echo') === '1', ternEcho: +(q.get('ternEcho') || 0), dcCount: +(q.get('dcCount') || 0),
  dcExtra: q.get('dcExtra') === '1', dcMax: q.get('dcMax') === '1', tone: +(q.get('tone') || 0), mediaMs: +(q.get('mediaMs') || 0),
  envelopes: q.get('envelopes') === '1', mode: q.get('mode') || 'normal', holdMs: +(q.get('holdMs') || 2000),
  finishBy: q.get('finishBy') || 'hangup', waitRunner: q.get('waitRunner') === '1', cancelAfterMs: +(q.get('cancelAfterMs') || 0),
  acceptVideo: q.get('acceptVideo') === '1', statsMs: +(q.get('statsMs') || 0), firstAnswer: q.get('firstAnswer') === '1',
};

const T0 = performance.now();
const R = {  // the result object
  userAgent: navigator.userAgent, params: P, events: [], errors: [], signalingIn: [], callId: null,
  connectedMs: null, ended: null, endedBy: null,
};
function ms() { return Math.round(performance.now() - T0); }
function log(msg) {
  const line = `[${ms()}] ${msg}`;
  console.log('TERN-PAGE ' + line);
  R.events.push(line);
  document.getElementById('log').textContent += line + '\n';
}
function fail(msg) { log('ERROR ' + msg); R.errors.push(msg); }
function post(path, body) {
  return fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    .catch(e => console.log('TERN-PAGE post failed ' + e));
}
const sleep = t => new Promise(r => setTimeout(r, t));
window.onerror = (m, s, l) => fail(`uncaught ${m} at ${l}`);
window.onunhandledrejection = e => fail(`unhandled rejection ${e.reason}`);

let ws, pc, callId, localStream, manageChannel, remoteSdp = '';
let finished = false;
let chain = Promise.resolve();   // signaling messages are handled one after the other

function send(msg) { ws.send(JSON.stringify(msg)); }

// ---------- signaling ----------
function start() {
  ws = new WebSocket(P.sig);
  ws.onopen = () => send({ type: 'register', user: P.user, token: '' });
  ws.onmessage = ev => { const m = JSON.parse(ev.data); chain = chain.then(() => onSignal(m)).catch(e => fail(`handling ${m.type}: ${e}`)); };
  ws.onclose = () => log('signaling socket closed');
  ws.onerror = () => fail('signaling socket error');
}

async function onSignal(m) {
  if (m.type !== 'candidate' && m.type !== 'description') R.signalingIn.push(m);
  switch (m.type) {
    case 'registered':
      log(`registered as ${m.user}`);
      await post('/event', { event: 'registered' });
      if (P.call) await placeCall();
      break;
    case 'invite':
      log(`invite ${m.callId} from ${m.from} media ${JSON.stringify(m.media)}`);
      if (!P.answer || callId) { send({ type: 'reject', callId: m.callId, reason: 'busy' }); break; }
      callId = R.callId = m.callId;
      startStatsLines();
      send({ type: 'ringing', callId });
      if (P.mode === 'reject') { await sleep(300); send({ type: 'reject', callId, reason: 'declined' }); log('rejected (declined)'); await finish('rejected by us'); break; }
      if (P.mode === 'ring') { log('ringing, not answering'); break; }
      send({ type: 'accept', callId });
      log('accepted');
      await createPeer();
      break;
    case 'ringing': log('remote ringing'); break;
    case 'accept':
      log('remote accepted');
      if (P.mode === 'cancel') break;
      await createPeer();
      await makeChannelsAsCaller();
      await addLocalMedia();
      {
        const offer = await pc.createOffer();
        await pc.setLocalDescription(offer);
        send({ type: 'description', callId, description: { type: pc.localDescription.type, sdp: pc.localDescription.sdp } });
        R.localOffer = pc.localDescription.sdp;
      }
      break;
    case 'description': {
      const d = m.description;
      log(`remote ${d.type}`);
      remoteSdp = d.sdp;
      if (d.type === 'offer') {
        R.remoteOffer = d.sdp;
        await pc.setRemoteDescription(d);
        await addLocalMedia();
        if (P.acceptVideo) await attachCamera();
        const answer = await pc.createAnswer();
        await pc.setLocalDescription(answer);
        R.localAnswer = pc.localDescription.sdp;
        send({ type: 'description', callId, description: { type: 'answer', sdp: pc.localDescription.sdp } });
        if (P.data && !R.ownChannelsMade) { R.ownChannelsMade = true; makeOwnChannels(); }
      } else if (d.type === 'answer') {
        R.remoteAnswer = d.sdp;
        await pc.setRemoteDescription(d);
      }
      break;
    }
    case 'candidate':
      if (!pc) { fail('candidate before the peer connection'); break; }
      if (m.candidate && m.candidate.candidate) {
        (R.remoteCandidates = R.remoteCandidates || []).push(m.candidate.candidate);
        try { await pc.addIceCandidate(m.candidate); } catch (e) { fail(`addIceCandidate ${m.candidate.candidate}: ${e}`); }
      } else {
        R.remoteEndOfCandidates = true;
      }
      break;
    case 'hangup': log('remote hung up'); R.endedBy = 'remote hangup'; await finish('remote hangup'); break;
    case 'cancel': log('remote cancelled'); R.endedBy = 'remote cancel'; await finish('remote cancel'); break;
    case 'reject': log(`rejected: ${m.reason}`); R.endedBy = `reject ${m.reason}`; await finish('rejected'); break;
    case 'timeout': log('ring timeout'); R.endedBy = 'timeout'; await finish('timeout'); break;
    case 'answeredElsewhere': log('answered elsewhere'); R.endedBy = 'answeredElsewhere'; await finish('answeredElsewhere'); break;
    case 'error': fail(`signaling error ${m.code}: ${m.message}`); break;
    default: log(`signal ${m.type}`);
  }
}

async function placeCall() {
  callId = R.callId = 'chrome-' + Math.random().toString(16).slice(2);
  startStatsLines();
  const to = P.firstAnswer ? { to: P.call.split(','), mode: 'firstAnswer' } : { to: P.call };
  send({ type: 'invite', callId, ...to, media: { audio: P.audio, video: P.video, data: P.data }, timeoutMs: 30000 });
  log(`invited ${P.call} (${callId})`);
  if (P.mode === 'cancel') {
    if (P.cancelAfterMs) await sleep(P.cancelAfterMs);
    send({ type: 'cancel', callId });
    log(`cancelled ${P.cancelAfterMs} ms after the invite`);
    await sleep(3000);   // anything that crosses the cancel (accept, description) is recorded
    R.endedBy = 'local cancel';
    await finish('cancelled by us');
  }
}

// ---------- peer connection ----------
async function createPeer() {
  pc = new RTCPeerConnection({ iceServers: [] });
  R.localCandidates = [];
  pc.onicecandidate = e => {
    if (e.candidate) R.localCandidates.push(e.candidate.candidate);
    send({ type: 'candidate', callId, candidate: e.candidate ? e.candidate.toJSON() : null });
  };
  pc.onconnectionstatechange = () => {
    log(`connectionState ${pc.connectionState}`);
    if (pc.connectionState === 'connected' && R.connectedMs === null) { R.connectedMs = ms(); onConnected(); }
    if (pc.connectionState === 'failed') { fail('peer connection failed'); finish('pc failed'); }
  };
  pc.oniceconnectionstatechange = () => log(`iceConnectionState ${pc.iceConnectionState}`);
  pc.ondatachannel = e => adoptChannel(e.channel, false);
  pc.ontrack = e => onRemoteTrack(e);
}

async function addLocalMedia() {
  if (localStream || !(P.audio || P.video)) return;
  localStream = await navigator.mediaDevices.getUserMedia({ audio: P.audio, video: P.video });
  for (const track of localStream.getTracks()) pc.addTrack(track, localStream);
  log(`local media: ${localStream.getTracks().map(t => t.kind + ' ' + t.label).join(', ')}`);
  // Ground truth for what Tern should hear: the fake microphone's beep, measured the same way.
  if (P.audio) startToneDetector(new MediaStream(localStream.getAudioTracks()), 'audioLocal');
}

async function makeChannelsAsCaller() {
  // The caller opens manage-call before the first offer (Docs/MANAGE-CALL.md).
  adoptChannel(pc.createDataChannel('manage-call'), true);
  if (P.data) makeOwnChannels();
}
function makeOwnChannels() {
  if (P.dcCount) adoptChannel(pc.createDataChannel('chrome-echo'), true);
  if (P.dcExtra) {
    adoptChannel(pc.createDataChannel('chrome-unordered', { ordered: false }), true);
    adoptChannel(pc.createDataChannel('chrome-maxrtx0', { ordered: false, maxRetransmits: 0 }), true);
  }
}

// ---------- data channels ----------
const dc = { ternEchoed: 0, received: {} };
function adoptChannel(ch, own) {
  ch.binaryType = 'arraybuffer';
  const onopen = () => {
    log(`data channel '${ch.label}' open (id ${ch.id}, ordered ${ch.ordered}, maxRetransmits ${ch.maxRetransmits})`);
    if (ch.label === 'manage-call') { manageChannel = ch; if (P.envelopes) runEnvelopes(ch); }
    else if (own && ch.label === 'chrome-echo') runEcho(ch);
    else if (own) runLossyEcho(ch);
  };
  if (ch.readyState === 'open') setTimeout(onopen, 0); else ch.onopen = onopen;
  ch.onclose = () => log(`data channel '${ch.label}' closed`);
  if (ch.label === 'manage-call') {
    ch.onmessage = e => { dc.received[ch.label] = (dc.received[ch.label] || 0) + 1; onEnvelope(e.data); };
  } else if (!own) {
    ch.onmessage = e => {
      dc.received[ch.label] = (dc.received[ch.label] || 0) + 1;
      if (P.echo) ch.send(e.data);
      if (ch.label === 'tern-data') { dc.ternEchoed++; if (P.ternEcho && dc.ternEchoed === P.ternEcho) log(`echoed all ${P.ternEcho} tern-data messages`); }
    };
  }
}

// Deterministic message i: size from 1 B to 64 KiB (log scale), even = string, odd = binary.
function messageSize(i, n) { return n <= 1 ? 1 : Math.max(1, Math.round(Math.exp(Math.log(65536) * i / (n - 1)))); }
function fill(i, size) {
  const bytes = new Uint8Array(size);
  let x = (i * 2654435761) >>> 0;
  for (let k = 0; k < size; k++) { x = (x * 1103515245 + 12345) >>> 0; bytes[k] = 0x21 + ((x >>> 16) % 94); }  // printable ASCII
  return bytes;
}
function makeMessage(i, size, binary) {
  const bytes = fill(i, size);
  return binary ? bytes.buffer : new TextDecoder().decode(bytes);
}
function sameMessage(a, b) {
  if (typeof a !== typeof b) return false;
  if (typeof a === 'string') return a === b;
  if (a.byteLength !== b.byteLength) return false;
  const x = new Uint8Array(a), y = new Uint8Array(b);
  for (let k = 0; k < x.length; k++) if (x[k] !== y[k]) return false;
  return true;
}
async function drain(ch, high) {
  while (ch.bufferedAmount > high) {
    await new Promise(r => { ch.bufferedAmountLowThreshold = high / 2; ch.onbufferedamountlow = r; setTimeout(r, 200); });
  }
}

R.echo = null;
async function runEcho(ch) {
  const n = P.dcCount;
  const expected = [];
  for (let i = 0; i < n; i++) expected.push({ size: messageSize(i, n), binary: i % 2 === 1 });
  // One more at the remote's a=max-message-size (the largest message it says it takes).
  const mm = /a=max-message-size:(\d+)/.exec(remoteSdp);
  const maxSize = mm ? +mm[1] : 65536;
  if (P.dcExtra || P.dcMax) expected.push({ size: maxSize, binary: true });
  const res = R.echo = { label: ch.label, sent: 0, received: 0, matched: 0, mismatched: 0, firstMismatch: null,
    bytesSent: 0, remoteMaxMessageSize: maxSize, sizes: `${expected[0].size}..${expected[expected.length - 1].size}`, durationMs: null, done: false };
  let next = 0;
  const t = performance.now();
  const done = new Promise(resolve => {
    ch.onmessage = e => {
      res.received++;
      const i = next++;
      const want = i < expected.length ? makeMessage(i, expected[i].size, expected[i].binary) : null;
      if (want !== null && sameMessage(want, e.data)) res.matched++;
      else {
        res.mismatched++;
        if (!res.firstMismatch) res.firstMismatch = `message ${i}: got ${typeof e.data} ${e.data.byteLength ?? e.data.length} B, want ${expected[i] && expected[i].size} B ${expected[i] && expected[i].binary ? 'binary' : 'string'}`;
      }
      if (res.received === expected.length) resolve();
    };
  });
  try {
    for (let i = 0; i < expected.length; i++) {
      await drain(ch, 1 << 20);
      ch.send(makeMessage(i, expected[i].size, expected[i].binary));
      res.sent++; res.bytesSent += expected[i].size;
    }
  } catch (e) { fail(`send on ${ch.label} after ${res.sent}: ${e}`); }
  log(`sent ${res.sent} messages (${res.bytesSent} B) on ${ch.label}`);
  await Promise.race([done, sleep(60000)]);
  res.durationMs = Math.round(performance.now() - t);
  res.done = true;
  log(`echo on ${ch.label}: ${res.matched}/${expected.length} matched, ${res.mismatched} mismatched, ${res.durationMs} ms`);
  post('/event', { event: 'echoDone' });
  checkDone();
}

R.lossy = {};
async function runLossyEcho(ch) {
  const n = 200, size = 1000;
  const res = R.lossy[ch.label] = { sent: 0, received: 0, intact: 0, duplicates: 0, outOfOrder: 0, done: false };
  const seen = new Set();
  let last = -1;
  ch.onmessage = e => {
    res.received++;
    const s = typeof e.data === 'string' ? e.data : '';
    const i = parseInt(s.slice(0, 6), 10);
    if (seen.has(i)) res.duplicates++;
    seen.add(i);
    if (i < last) res.outOfOrder++;
    last = Math.max(last, i);
    if (i >= 0 && i < n && s === msg(i)) res.intact++;
  };
  function msg(i) { return String(i).padStart(6, '0') + new TextDecoder().decode(fill(i + 7777, size - 6)); }
  for (let i = 0; i < n; i++) { await drain(ch, 256 * 1024); ch.send(msg(i)); res.sent++; }
  const t = performance.now();
  while (res.received < n && performance.now() - t < 5000) await sleep(50);
  res.done = true;
  log(`${ch.label}: ${res.intact}/${n} intact echoes, ${res.duplicates} duplicates, ${res.outOfOrder} out of order`);
  checkDone();
}

// ---------- manage-call envelopes (Docs/MANAGE-CALL.md) ----------
function jsonString(s) {  // RFC 8259 §7 escaping exactly as the envelope format writes it
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0);
    if (ch === '"') out += '\\"'; else if (ch === '\\') out += '\\\\';
    else if (c === 8) out += '\\b'; else if (c === 9) out += '\\t'; else if (c === 10) out += '\\n';
    else if (c === 12) out += '\\f'; else if (c === 13) out += '\\r';
    else if (c < 0x20) out += '\\u00' + c.toString(16).padStart(2, '0');
    else out += ch;
  }
  return out + '"';
}
function envelope(eventType, data) {
  return `{"eventType":${jsonString(eventType)},"manageCallEventData":[` +
    data.map(([n, v]) => `{"dataName":${jsonString(n)},"dataValue":${jsonString(v)}}`).join(',') + ']}';
}
R.envelopesSent = []; R.envelopesReceived = [];
const ENVELOPES = [
  ['sendMessage', [['processName', 'CustOnboarding'], ['step', '1']]],
  ['sendMessage', [['quote"back\\slash', 'line\nbreak\ttab \u0001 ctl'], ['unicode', 'héllo ✓ 🐦 /slash']]],
  ['sendMessage', []],
  ['callMinimized', []],
  ['sendMessage', [['dup', 'a'], ['dup', 'b'], ['last', 'after-garbage']]],
];
async function runEnvelopes(ch) {
  for (let k = 0; k < ENVELOPES.length; k++) {
    const [type, data] = ENVELOPES[k];
    if (k === 4) { ch.send('{"eventType":"sendMessage","manageCallEventData":[{"dataName":1}]}'); R.envelopesSent.push('(malformed)'); }
    const text = envelope(type, data);
    ch.send(text);
    R.envelopesSent.push(text);
    await sleep(100);
  }
  log(`sent ${R.envelopesSent.length} envelopes on manage-call`);
  R.envelopesDone = true;
  checkDone();
}
function onEnvelope(data) {
  R.envelopesReceived.push(typeof data === 'string' ? data : `(binary ${data.byteLength} B)`);
  log(`manage-call received: ${String(data).slice(0, 200)}`);
  if (P.acceptVideo) answerVideoRequest(data);
}
// The video escalation of Docs/MANAGE-CALL.md, answering side: accept with the mirrored mode; the
// requester then re-offers, and attachCamera() sends our camera on the section it adds.
R.videoRequests = [];
async function answerVideoRequest(data) {
  let m;
  try { m = JSON.parse(data); } catch (e) { return; }
  if (m.eventType !== 'videoRequest') return;
  const item = n => ((m.manageCallEventData || []).find(d => d.dataName === n) || {}).dataValue;
  const mirror = { sendrecv: 'sendrecv', sendonly: 'recvonly', recvonly: 'sendonly', inactive: 'inactive' };
  const mode = mirror[item('videoMode')] || 'inactive';
  if (mode === 'inactive' && pc) {
    // Chromium drops a receiver's inbound-rtp entry once its transceiver is inactive: keep what
    // the video did before it is removed.
    const stats = await pc.getStats();
    stats.forEach(s => {
      if (s.type === 'inbound-rtp' && s.kind === 'video') {
        R.videoBeforeRemoval = { framesDecoded: s.framesDecoded, frameWidth: s.frameWidth, frameHeight: s.frameHeight };
      }
    });
  }
  manageChannel.send(envelope('videoAnswer', [['requestId', item('requestId') || ''], ['videoMode', mode]]));
  R.videoRequests.push({ requestId: item('requestId'), requested: item('videoMode'), answered: mode, ms: ms() });
  log(`video request ${item('requestId')} (${item('videoMode')}) accepted as ${mode}`);
}
let camera = null;
async function attachCamera() {
  for (const t of pc.getTransceivers()) {
    if (t.receiver.track.kind !== 'video' || t.sender.track || t.stopped || t.direction === 'sendonly') continue;
    if (!camera) camera = (await navigator.mediaDevices.getUserMedia({ video: true })).getVideoTracks()[0];
    await t.sender.replaceTrack(camera);
    t.direction = 'sendrecv';
    R.cameraAttachedMs = ms();
    log(`camera attached to video section ${t.mid}`);
  }
}

// ---------- media ----------
R.audioIn = null; R.videoIn = null;
let readVideoNow = null;
function onRemoteTrack(e) {
  const track = e.track;
  log(`remote track ${track.kind}`);
  const stream = e.streams[0] || new MediaStream([track]);
  if (track.kind === 'audio') startToneDetector(new MediaStream([track]), 'audioIn');
  if (track.kind === 'video') startFrameReader(new MediaStream([track]));
}

function startToneDetector(stream, key) {
  // Chromium only feeds remote WebRTC audio to WebAudio when the stream also plays in an element.
  const el = new Audio(); el.srcObject = stream; el.muted = true; el.play().catch(e => fail(`audio play: ${e}`));
  const ctx = new AudioContext();
  const src = ctx.createMediaStreamSource(stream);
  const an = ctx.createAnalyser();
  an.fftSize = 16384; an.smoothingTimeConstant = 0;
  src.connect(an);
  const bins = new Float32Array(an.frequencyBinCount);
  const power = new Float64Array(an.frequencyBinCount);
  const res = R[key] = { sampleRate: ctx.sampleRate, contextState: ctx.state, frames: 0, peakHz: null, peakDb: null };
  const timer = setInterval(() => {
    if (finished) { clearInterval(timer); return; }
    an.getFloatFrequencyData(bins);
    if (!isFinite(bins[10])) return;
    res.frames++;
    for (let k = 0; k < bins.length; k++) power[k] += Math.pow(10, bins[k] / 10);
    const hz = k => k * ctx.sampleRate / an.fftSize;
    let best = -1;
    for (let k = 2; k < bins.length - 1; k++) if (hz(k) >= 100 && hz(k) <= 4000 && (best < 0 || power[k] > power[best])) best = k;
    // parabolic interpolation on the log power around the peak
    const a = Math.log(power[best - 1] + 1e-30), b = Math.log(power[best] + 1e-30), c = Math.log(power[best + 1] + 1e-30);
    const d = (a - 2 * b + c) !== 0 ? 0.5 * (a - c) / (a - 2 * b + c) : 0;
    res.peakHz = Math.round(hz(best + d) * 10) / 10;
    res.peakDb = Math.round(10 * Math.log10(power[best] / res.frames) * 10) / 10;
    res.contextState = ctx.state;
  }, 100);
}

function startFrameReader(stream) {
  const v = document.createElement('video');
  v.muted = true; v.autoplay = true; v.playsInline = true; v.srcObject = stream;
  document.body.appendChild(v);
  v.play().catch(e => fail(`video play: ${e}`));
  const canvas = document.createElement('canvas');
  const g = canvas.getContext('2d', { willReadFrequently: true });
  const res = R.videoIn = { callbacks: 0, counters: 0, distinct: 0, firstCounter: null, lastCounter: null, width: 0, height: 0 };
  const seen = new Set();
  // Reads the counter of the picture on screen now (also called right before the final getStats,
  // so the counter range and framesDecoded cover the same frames).
  readVideoNow = () => {
    const w = v.videoWidth, h = v.videoHeight;
    if (w >= 16 && h >= 16) {
      res.width = w; res.height = h;
      canvas.width = w; canvas.height = h;
      g.drawImage(v, 0, 0, w, h);
      const c = readCounter(g.getImageData(0, 0, w, h >> 1), w, h);
      if (c !== null) {
        res.counters++;
        if (res.firstCounter === null) res.firstCounter = c;
        res.lastCounter = c;
        if (!seen.has(c)) { seen.add(c); res.distinct++; }
      }
    }
  };
  const onFrame = () => {
    if (finished) return;
    res.callbacks++;
    readVideoNow();
    v.requestVideoFrameCallback(onFrame);
  };
  v.requestVideoFrameCallback(onFrame);
}
// Tern's test pattern (Sources/TernMedia/Synthetic/TestPatternLayout.swift): top half = 8 × 4 blocks,
// blocks 0–15 = 16-bit counter (bit 15 first), 16–31 = its complement; white = 1.
function readCounter(img, w, h) {
  const bw = Math.floor(w / 8), bh = Math.floor((h >> 1) / 4);
  let value = 0;
  for (let i = 0; i < 32; i++) {
    const bx = (i % 8) * bw, by = Math.floor(i / 8) * bh;
    const x0 = bx + (bw >> 2), x1 = bx + ((3 * bw) >> 2), y0 = by + (bh >> 2), y1 = by + ((3 * bh) >> 2);
    let sum = 0, n = 0;
    for (let y = y0; y < Math.max(y1, y0 + 1); y++) for (let x = x0; x < Math.max(x1, x0 + 1); x++) {
      const o = (y * w + x) * 4;
      sum += 0.299 * img.data[o] + 0.587 * img.data[o + 1] + 0.114 * img.data[o + 2]; n++;
    }
    value = ((value << 1) | (sum / n > 127 ? 1 : 0)) >>> 0;
  }
  const counter = value >>> 16, check = value & 0xffff;
  return check === ((~counter) & 0xffff) ? counter : null;
}

// ---------- renegotiation and ICE restart, started by the page mid-call ----------
R.reoffers = [];
async function reoffer(label, options) {
  const entry = { label, startMs: ms(), answered: false };
  R.reoffers.push(entry);
  const offer = await pc.createOffer(options);
  await pc.setLocalDescription(offer);
  send({ type: 'description', callId, description: { type: 'offer', sdp: pc.localDescription.sdp } });
  log(`re-offer sent (${label})`);
  for (let t = 0; t < 100 && pc.signalingState !== 'stable'; t++) await sleep(100);
  entry.answered = pc.signalingState === 'stable';
  entry.answerMs = ms() - entry.startMs;
  entry.remoteAnswer = remoteSdp;
  entry.transceivers = pc.getTransceivers().map(t => `${t.mid}:${t.receiver.track.kind}:${t.currentDirection}`);
  log(`re-offer (${label}) ${entry.answered ? 'answered' : 'NOT answered'} in ${entry.answerMs} ms; ${entry.transceivers.join(' ')}`);
  return entry;
}
async function inboundPackets(kind) {
  let n = 0;
  (await pc.getStats()).forEach(s => { if (s.type === 'inbound-rtp' && s.kind === kind) n += s.packetsReceived; });
  return n;
}
async function outboundFrames() {
  let n = 0;
  (await pc.getStats()).forEach(s => { if (s.type === 'outbound-rtp' && s.kind === 'video') n += s.framesSent || 0; });
  return n;
}
async function renegotiateVideo() {
  const stream = await navigator.mediaDevices.getUserMedia({ video: true });
  const sender = pc.addTrack(stream.getVideoTracks()[0], stream);
  const add = await reoffer('add video');
  await sleep(4000);
  add.framesSentAfter4s = await outboundFrames();
  const audioBefore = await inboundPackets('audio');
  pc.removeTrack(sender);
  const remove = await reoffer('remove video');
  await sleep(2000);
  remove.framesSentAfter2s = await outboundFrames();
  remove.audioPacketsDuring = (await inboundPackets('audio')) - audioBefore;
  R.renegDone = true;
  checkDone();
}
async function restartIce() {
  const ufrag = sdp => (/a=ice-ufrag:(\S+)/.exec(sdp || '') || [])[1];
  const before = { localUfrag: ufrag(pc.localDescription.sdp), remoteUfrag: ufrag(pc.remoteDescription.sdp), audio: await inboundPackets('audio') };
  const entry = await reoffer('ICE restart', { iceRestart: true });
  for (let t = 0; t < 100 && !['connected', 'completed'].includes(pc.iceConnectionState); t++) await sleep(100);
  const afterAnswer = await inboundPackets('audio');
  await sleep(3000);
  R.iceRestart = { ...before, newLocalUfrag: ufrag(pc.localDescription.sdp), newRemoteUfrag: ufrag(pc.remoteDescription.sdp),
    iceState: pc.iceConnectionState, answered: entry.answered, audioPacketsIn3sAfter: (await inboundPackets('audio')) - afterAnswer };
  log(`ICE restart: ${JSON.stringify(R.iceRestart)}`);
  R.renegDone = true;
  checkDone();
}

// ---------- call progress ----------
function onConnected() {
  log(`connected at ${R.connectedMs} ms`);
  if (P.mode === 'hangupAfter') { setTimeout(() => hangup('hold time over'), P.holdMs); return; }
  if (P.mode === 'renegotiate') setTimeout(() => renegotiateVideo().catch(e => { fail(`renegotiation: ${e}`); R.renegDone = true; checkDone(); }), 2000);
  if (P.mode === 'iceRestart') setTimeout(() => restartIce().catch(e => { fail(`ICE restart: ${e}`); R.renegDone = true; checkDone(); }), 2000);
  if (P.mediaMs) setTimeout(() => { R.mediaTimeUp = true; checkDone(); }, P.mediaMs);
  checkDone();
}
function checkDone() {
  if (finished || R.connectedMs === null) return;
  if (P.mode !== 'normal' && !((P.mode === 'renegotiate' || P.mode === 'iceRestart') && R.renegDone)) return;
  if (P.dcCount && !(R.echo && R.echo.done)) return;
  if (P.dcExtra && !(R.lossy['chrome-unordered'] && R.lossy['chrome-unordered'].done && R.lossy['chrome-maxrtx0'] && R.lossy['chrome-maxrtx0'].done)) return;
  if (P.ternEcho && dc.ternEchoed < P.ternEcho) return;
  if (P.envelopes && !R.envelopesDone) return;
  if (P.mediaMs && !R.mediaTimeUp) return;
  if (P.finishBy !== 'hangup' || R.hangupPending) return;
  R.hangupPending = true;
  (async () => {
    // With waitRunner=1 the runner says when Tern's own echo run is over (GET /ready), so
    // echoes still queued in our SCTP association are not cut off by the hang-up.
    for (let t = 0; P.waitRunner && t < 600; t++) {
      const r = await fetch('/ready').catch(() => null);
      if (r && r.status === 200) break;
      await sleep(100);
    }
    setTimeout(() => hangup('checks done'), 500);
  })();
}
async function hangup(why) {
  if (finished) return;
  log(`hanging up (${why})`);
  await collectStats();   // before closing: the numbers as seen during the call
  send({ type: 'hangup', callId });
  R.endedBy = 'local hangup';
  await finish('local hangup');
}

async function collectStats() {
  if (!pc || R.stats) return;
  if (readVideoNow) readVideoNow();
  const report = await pc.getStats();
  const out = { inboundRtp: [], outboundRtp: [], selectedPair: null, transport: null, dataChannels: [], codecs: [] };
  const byId = {};
  report.forEach(s => { byId[s.id] = s; });
  report.forEach(s => {
    if (s.type === 'inbound-rtp') out.inboundRtp.push(pick(s, ['kind', 'ssrc', 'packetsReceived', 'packetsLost', 'jitter', 'bytesReceived', 'framesDecoded', 'framesReceived', 'framesDropped', 'frameWidth', 'frameHeight', 'keyFramesDecoded', 'totalSamplesReceived', 'concealedSamples', 'codecId', 'nackCount', 'pliCount', 'firCount']));
    if (s.type === 'outbound-rtp') out.outboundRtp.push(pick(s, ['kind', 'ssrc', 'packetsSent', 'bytesSent', 'framesEncoded', 'framesSent', 'frameWidth', 'frameHeight', 'keyFramesEncoded', 'nackCount', 'pliCount', 'firCount', 'qualityLimitationReason', 'codecId', 'encoderImplementation', 'targetBitrate']));
    if (s.type === 'codec') out.codecs.push(pick(s, ['id', 'mimeType', 'payloadType', 'clockRate', 'channels', 'sdpFmtpLine']));
    if (s.type === 'data-channel') out.dataChannels.push(pick(s, ['label', 'protocol', 'state', 'messagesSent', 'messagesReceived', 'bytesSent', 'bytesReceived']));
    if (s.type === 'transport') {
      out.transport = pick(s, ['dtlsState', 'iceState', 'tlsVersion', 'dtlsCipher', 'srtpCipher', 'dtlsRole', 'selectedCandidatePairChanges']);
      const pair = byId[s.selectedCandidatePairId];
      if (pair) {
        const l = byId[pair.localCandidateId] || {}, r = byId[pair.remoteCandidateId] || {};
        out.selectedPair = { local: `${l.candidateType} ${l.address}:${l.port}/${l.protocol}`, remote: `${r.candidateType} ${r.address}:${r.port}/${r.protocol}`, currentRoundTripTime: pair.currentRoundTripTime, packetsSent: pair.packetsSent, packetsReceived: pair.packetsReceived, availableOutgoingBitrate: pair.availableOutgoingBitrate };
      }
    }
  });
  R.stats = out;
}
// Periodic stats in the shape of `tern peer --stats-interval` lines: one report, W3C names.
let statsT0 = null;
function startStatsLines() {
  if (!P.statsMs || statsT0 !== null) return;
  statsT0 = performance.now();
  const tick = async () => {
    if (finished) return;
    if (pc) {
      try {
        const report = await pc.getStats(), byId = {}, out = [];
        report.forEach(s => { byId[s.id] = s; });
        report.forEach(s => {
          if (s.type === 'inbound-rtp') out.push(pick(s, ['type', 'kind', 'bytesReceived', 'headerBytesReceived', 'packetsReceived', 'packetsLost', 'framesDecoded', 'framesPerSecond', 'frameWidth', 'frameHeight', 'freezeCount', 'totalFreezesDuration']));
          if (s.type === 'outbound-rtp') out.push(pick(s, ['type', 'kind', 'bytesSent', 'headerBytesSent', 'retransmittedBytesSent', 'targetBitrate', 'frameWidth', 'frameHeight', 'framesPerSecond', 'qualityLimitationReason']));
          if (s.type === 'data-channel') out.push(pick(s, ['type', 'label', 'bytesSent', 'bytesReceived']));
          if (s.type === 'transport' && byId[s.selectedCandidatePairId]) {
            out.push(pick(byId[s.selectedCandidatePairId], ['type', 'currentRoundTripTime', 'availableOutgoingBitrate', 'bytesSent', 'bytesReceived']));
          }
        });
        await post('/stats', { category: 'w3cstats', t: Math.round(performance.now() - statsT0), report: out });
      } catch (e) { console.log('TERN-PAGE stats failed ' + e); }
    }
    setTimeout(tick, P.statsMs);
  };
  setTimeout(tick, P.statsMs);
}

function pick(s, keys) { const o = {}; for (const k of keys) if (s[k] !== undefined) o[k] = s[k]; return o; }

async function finish(why) {
  if (finished) return;
  finished = true;
  R.ended = why; R.endedMs = ms(); R.ternEchoed = dc.ternEchoed;
  try { await collectStats(); } catch (e) { fail(`getStats: ${e}`); }
  if (pc) {
    R.finalConnectionState = pc.connectionState;
    R.finalTransceivers = pc.getTransceivers().map(t => `${t.receiver.track.kind}:${t.currentDirection}`);
    pc.close();
  }
  log(`finished: ${why}`);
  await post('/result', R);
}

start();

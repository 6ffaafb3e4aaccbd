// Tern interop group member for Chromium: one member of a protocol-v1 group call (Docs/SIGNALING.md
// "Group calls") with one RTCPeerConnection per other member. The member who joins later offers to
// every member already in; descriptions and candidates carry `to` (sent) and `from` (received).
// Sends the fake microphone and camera to every member, measures each member's tone (FFT peak) and
// counts its decoded video frames, and POSTs one result object to /result.
//
// Query: sig=ws://…/v1  user=NAME  call=A,B (invite them: the page is the caller) | answer=1 (join
// the group call that rings)  mediaMs=MS (media time once every leg is up; then the caller ends the
// call for everyone, a member quits — unless the call ends first)
//   reject=declined|busy   answer the invite with a reject instead       ring=1   ring, never answer
//   inviteMore=A,B         once every leg is up, invite them into the running call
//   cancel=A               cancel A's invitation as soon as A rings (the call goes on)
//   timeoutMs=MS           how long each invitation rings (default 30000)
'use strict';

const q = new URLSearchParams(location.search);
const P = { sig: q.get('sig'), user: q.get('user') || 'chrome', call: q.get('call'), answer: q.get('answer') === '1',
            mediaMs: +(q.get('mediaMs') || 6000), reject: q.get('reject'), ring: q.get('ring') === '1',
            inviteMore: q.get('inviteMore'), cancel: q.get('cancel'), timeoutMs: +(q.get('timeoutMs') || 30000) };
const T0 = performance.now();
const R = { userAgent: navigator.userAgent, params: P, events: [], errors: [], members: [], legs: {}, ended: null };
const ms = () => Math.round(performance.now() - T0);
function log(m) { const l = `[${ms()}] ${m}`; console.log('TERN-PAGE ' + l); R.events.push(l); document.getElementById('log').textContent += l + '\n'; }
function fail(m) { log('ERROR ' + m); R.errors.push(m); }
const post = (path, body) => fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  .catch(e => console.log('post failed ' + e));
window.onerror = (m, s, l) => fail(`uncaught ${m} at ${l}`);
window.onunhandledrejection = e => fail(`unhandled rejection ${e.reason}`);

let ws, callId = null, local = null, joined = false, finished = false, upAt = null, invitedMore = !P.inviteMore, cancelled = !P.cancel;
const pcs = {};          // member -> RTCPeerConnection
let chain = Promise.resolve();
const send = m => ws.send(JSON.stringify(m));

function start() {
  ws = new WebSocket(P.sig);
  ws.onopen = () => send({ type: 'register', user: P.user, token: '' });
  ws.onmessage = ev => { const m = JSON.parse(ev.data); chain = chain.then(() => onSignal(m)).catch(e => fail(`handling ${m.type}: ${e}`)); };
  ws.onerror = () => fail('signaling socket error');
}

async function media() {
  if (!local) local = await navigator.mediaDevices.getUserMedia({ audio: true, video: true });
  return local;
}

async function leg(member) {
  if (pcs[member]) return pcs[member];
  const pc = pcs[member] = new RTCPeerConnection();
  const res = R.legs[member] = { state: 'new', audioPeakHz: null, frames: 0, width: 0, height: 0 };
  for (const track of (await media()).getTracks()) pc.addTrack(track, local);
  pc.onicecandidate = e => send({ type: 'candidate', callId, to: member, candidate: e.candidate ? e.candidate.toJSON() : null });
  pc.onconnectionstatechange = () => { res.state = pc.connectionState; log(`leg ${member} ${pc.connectionState}`); };
  pc.ontrack = e => {
    const stream = new MediaStream([e.track]);
    if (e.track.kind === 'audio') toneDetector(stream, res); else frameCounter(stream, res);
  };
  return pc;
}

async function onSignal(m) {
  switch (m.type) {
    case 'registered':
      log(`registered as ${m.user}`);
      await post('/event', { event: 'registered' });
      if (P.call) {
        callId = `chrome-${Date.now()}`;
        send({ type: 'invite', callId, to: P.call.split(','), mode: 'group', media: { audio: true, video: true, data: false },
               timeoutMs: P.timeoutMs });
        log(`invited ${P.call}`);
      }
      break;
    case 'invite':
      if (!P.answer || callId) { send({ type: 'reject', callId: m.callId, reason: 'busy' }); break; }
      callId = m.callId;
      log(`group invite ${callId} from ${m.from}: ${m.to.join(', ')}`);
      send({ type: 'ringing', callId });
      if (P.reject) {
        send({ type: 'reject', callId, reason: P.reject });
        log(`rejected (${P.reject})`); R.ended = `rejectedByUs(${P.reject})`; await finish(); break;
      }
      if (P.ring) { log('ringing, not answering'); break; }
      await media();
      send({ type: 'accept', callId });
      break;
    case 'members': {
      R.members = m.members;
      for (const x of m.members) {   // every state each member went through, as this page saw it
        const seen = (R.memberStates = R.memberStates || {})[x.user] = R.memberStates[x.user] || [];
        const state = x.state + (x.reason ? `(${x.reason})` : '');
        if (seen[seen.length - 1] !== state) seen.push(state);
      }
      log('members ' + m.members.map(x => `${x.user} ${x.state}`).join(', '));
      if (!cancelled && m.members.some(x => x.user === P.cancel && x.state === 'ringing')) {
        cancelled = true;
        send({ type: 'cancel', callId, to: [P.cancel] });
        log(`cancelled the invitation of ${P.cancel}`);
      }
      if (P.ring || !m.members.some(x => x.user === P.user && x.state === 'accepted')) break;
      const others = m.members.filter(x => x.state === 'accepted' && x.user !== P.user).map(x => x.user);
      const newcomer = !joined && !P.call;
      joined = true;
      for (const member of others) {
        if (pcs[member]) continue;
        const pc = await leg(member);
        if (newcomer) {   // we joined later: we offer to every member already in
          await pc.setLocalDescription(await pc.createOffer());
          send({ type: 'description', callId, to: member, description: { type: 'offer', sdp: pc.localDescription.sdp } });
        }
      }
      for (const member of Object.keys(pcs)) if (!others.includes(member)) { pcs[member].close(); R.legs[member].state = 'left'; }
      break;
    }
    case 'description': {
      const pc = await leg(m.from);
      await pc.setRemoteDescription(m.description);
      if (m.description.type === 'offer') {
        await pc.setLocalDescription(await pc.createAnswer());
        send({ type: 'description', callId, to: m.from, description: { type: 'answer', sdp: pc.localDescription.sdp } });
      }
      break;
    }
    case 'candidate':
      if (pcs[m.from] && m.candidate) await pcs[m.from].addIceCandidate(m.candidate).catch(e => fail(`candidate from ${m.from}: ${e}`));
      break;
    case 'ended': log(`ended (${m.reason})`); R.ended = m.reason; await finish(); break;
    case 'cancel': case 'timeout': case 'answeredElsewhere': log(m.type); R.ended = m.type; await finish(); break;
    case 'error': fail(`server error ${m.code}: ${m.message}`); break;
  }
}

function toneDetector(stream, res) {
  const el = new Audio(); el.srcObject = stream; el.muted = true; el.play().catch(e => fail(`audio play: ${e}`));
  const ctx = new AudioContext(), an = ctx.createAnalyser();
  an.fftSize = 16384; an.smoothingTimeConstant = 0;
  ctx.createMediaStreamSource(stream).connect(an);
  const bins = new Float32Array(an.frequencyBinCount), power = new Float64Array(an.frequencyBinCount);
  const timer = setInterval(() => {
    if (finished) return clearInterval(timer);
    an.getFloatFrequencyData(bins);
    if (!isFinite(bins[10])) return;
    for (let k = 0; k < bins.length; k++) power[k] += Math.pow(10, bins[k] / 10);
    const hz = k => k * ctx.sampleRate / an.fftSize;
    let best = -1;
    for (let k = 2; k < bins.length - 1; k++) if (hz(k) >= 100 && hz(k) <= 4000 && (best < 0 || power[k] > power[best])) best = k;
    const a = Math.log(power[best - 1] + 1e-30), b = Math.log(power[best] + 1e-30), c = Math.log(power[best + 1] + 1e-30);
    const d = (a - 2 * b + c) !== 0 ? 0.5 * (a - c) / (a - 2 * b + c) : 0;
    res.audioPeakHz = Math.round(hz(best + d) * 10) / 10;
  }, 100);
}

function frameCounter(stream, res) {
  const v = document.createElement('video');
  v.muted = true; v.autoplay = true; v.srcObject = stream;
  document.body.appendChild(v);
  v.play().catch(e => fail(`video play: ${e}`));
  const onFrame = () => { if (finished) return; res.frames++; res.width = v.videoWidth; res.height = v.videoHeight; v.requestVideoFrameCallback(onFrame); };
  v.requestVideoFrameCallback(onFrame);
}

async function finish() {
  if (finished) return;
  finished = true;
  for (const pc of Object.values(pcs)) pc.close();
  log('finished');
  await post('/result', R);
}

// Once every leg is connected, media for mediaMs; then the caller ends the call, a member quits.
setInterval(async () => {
  if (finished || !callId) return;
  const legs = Object.values(R.legs);
  const settled = legs.length && legs.every(l => l.state === 'connected' || l.state === 'left')
      && !R.members.some(x => x.state === 'inviting' || x.state === 'ringing');
  if (settled && !invitedMore) {
    invitedMore = true;
    send({ type: 'inviteMore', callId, to: P.inviteMore.split(','), timeoutMs: P.timeoutMs });
    log(`invited ${P.inviteMore} into the running call`);
    return;
  }
  if (upAt === null && settled && invitedMore && legs.some(l => l.state === 'connected')) { upAt = ms(); log('every leg connected'); }
  if (upAt !== null && ms() - upAt >= P.mediaMs) {
    send({ type: P.call ? 'hangup' : 'quit', callId });
    log(P.call ? 'ended the call for everyone' : 'quit');
    R.ended = P.call ? 'endedByUs' : 'quitByUs';
    await finish();
  }
}, 200);

start();

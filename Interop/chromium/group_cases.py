"""The group-call cases of the Chromium matrix (Docs/SIGNALING.md "Group calls", "First answer
wins"): the page is one member beside `tern peer` processes, all on one `tern signal`. Each case
runs in both roles: "offerer", a Tern member places the call; "answerer", the page does.

  group               a four-member video mesh (three Tern members and the page); the caller ends it
  group-answers       of three invitees one accepts, one rejects, one lets it ring out; the member
                      who accepted quits and the call ends (allLeft), or the page ends it
  group-invite-more   a call of two; a member invites the third (it joins later and offers to both)
                      and a fourth, whose invitation it cancels while it rings; one quits, the call
                      goes on, the caller ends it
  group-first-answer  three users ring, the first to accept has a one-to-one call, the others see
                      answeredElsewhere (on the wire a one-to-one call: the page is peer.html)

Tern members send their own tone (tern 440 Hz, bob 660 Hz, carol 880 Hz) and test pattern to each
other member; the browser sends its fake devices (Chromium: a 400 Hz beep; Firefox: a 1 kHz tone). A member checks the
tone and frames of every member it had media with for at least 3 s.
"""
import json
import os
import threading
import time
import urllib.parse

CASES = ["group", "group-answers", "group-invite-more", "group-first-answer"]
PAGE = "chrome"
TONES = {"tern": 440, "bob": 660, "carol": 880}
# The Tern members' test pattern: three debug `tern` processes and the browser share the rig's
# two cores, and each member encodes, sends and checks every stream once per other member. At
# 320x240 the cores stay saturated; the browser then reads its sockets late, and the Tern
# members' delay-based estimates of their legs to it (transport-wide feedback stamped by the
# browser) fell to the 30 kbit/s floor with no loss on the path, leaving 4-16 frames decoded
# in some runs (Firefox, 2026-11-30; Docs/CONGESTION.md "Not yet"). At 160x120 the page decoded
# a median of ~120 frames from each member against ~55 (Firefox, 5 runs each). The cases check
# the mesh, its signaling and that every stream flows, not picture quality.
VIDEO_SIZE = "160x120"


class Rig:
    """One `tern signal`, the page's HTTP server, and the processes of one (case, role)."""

    def __init__(self, prefix, tern_bin, browser, rm):
        self.prefix, self.tern_bin, self.browser, self.rm = prefix, tern_bin, browser, rm
        self.procs, self.members = [], {}
        self.server = rm.PageServer(rm.free_port())
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        sig_port = rm.free_port()
        self.procs.append(rm.spawn([tern_bin, "signal", "--port", str(sig_port)], prefix + ".signal.log"))
        if not rm.wait_port(sig_port, 15):
            raise RuntimeError("tern signal did not listen")
        self.sig_url = f"ws://127.0.0.1:{sig_port}/v1"

    def tern(self, user, args, group=True):
        """Starts `tern peer` as `user` and waits until it registered (a caller registers, then calls)."""
        path = f"{self.prefix}.{user}.jsonl"
        media = ["--audio", "--video", "--video-size", VIDEO_SIZE, "--group", "--tone", str(TONES[user])] if group else ["--audio"]
        proc = self.rm.spawn([self.tern_bin, "peer", "--signal", self.sig_url, "--user", user, "--ice-address", "127.0.0.1",
                              "--json"] + media + args, path)
        self.procs.append(proc)
        self.members[user] = (proc, path)
        deadline = time.time() + 20
        while time.time() < deadline and '"registered"' not in open(path, errors="replace").read():
            time.sleep(0.1)

    def page(self, html, params):
        """Opens the page in a fresh headless Chromium and waits until it registered."""
        params = dict(params, sig=self.sig_url, user=PAGE)
        url = f"http://127.0.0.1:{self.server.server_port}/{html}?" + urllib.parse.urlencode(params)
        self.procs.append(self.rm.spawn(self.rm.browser_command(self.browser, "group", url), self.prefix + ".chromium.log"))
        if not self.rm.wait_for(self.server, lambda: any(e.get("event") == "registered" for e in self.server.events), 30):
            raise RuntimeError("the page did not register within 30 s")

    def finish(self):
        """Waits for the page's result and every Tern member's exit; (page result, {user: (rc, summary)})."""
        self.rm.wait_for(self.server, lambda: self.server.result is not None, self.rm.CASE_TIMEOUT - 30)
        summaries = {}
        for user, (proc, path) in self.members.items():
            try:
                proc.wait(25)
            except Exception:
                self.rm.stop(proc)
            summary, _ = self.rm.tern_summary(path)
            summaries[user] = (proc.returncode, summary or {})
        with open(self.prefix + ".page.json", "w") as f:
            json.dump(self.server.result, f, indent=1)
        return self.server.result or {}, summaries

    def close(self):
        for p in reversed(self.procs):
            self.rm.stop(p)
        self.server.shutdown()


class Verdict:
    def __init__(self, page_tone):
        self.problems, self.figure = [], []
        self.page_tone = page_tone

    def need(self, cond, what):
        if not cond:
            self.problems.append(what)

    def tern_ok(self, user, rc, s):
        failed = [f"{st['name']}: {st['detail']}" for st in s.get("steps", []) if not st.get("passed")]
        self.need(s.get("result") == "ok" and rc == 0, f"{user}: rc {rc}, result {s.get('result')} {failed}")

    def tern_media(self, user, s, others):
        """`user` (a Tern group member) heard and saw every one of `others`."""
        g = s.get("group") or {}
        heard, frames = g.get("heardFrom") or {}, g.get("framesDecodedFrom") or {}
        for other in others:
            want, tolerance = (self.page_tone, 10) if other == PAGE else (TONES[other], TONES[other] * 0.02)
            hz = heard.get(other)
            self.need(hz is not None and abs(hz - want) <= tolerance, f"{user} heard {hz} Hz from {other}, want {want} Hz")
            self.need((frames.get(other) or 0) >= 10, f"{user} decoded {frames.get(other)} frames from {other}")
        self.figure.append(f"{user} hears " + ", ".join(f"{k} {v} Hz" for k, v in sorted(heard.items()))
                           + "; decodes " + ", ".join(f"{k} {v}" for k, v in sorted(frames.items())))

    def page_media(self, page, others):
        legs = page.get("legs") or {}
        for user in others:
            leg = legs.get(user) or {}
            peak = leg.get("audioPeakHz")
            self.need(peak is not None and abs(peak - TONES[user]) <= 5, f"page heard {peak} Hz from {user}, want {TONES[user]} Hz")
            self.need((leg.get("frames") or 0) >= 10, f"page decoded {leg.get('frames')} frames from {user}")
        self.figure.append("page hears " + ", ".join(f"{u} {(legs.get(u) or {}).get('audioPeakHz')} Hz / "
                                                     f"{(legs.get(u) or {}).get('frames')} frames" for u in others))

    def tern_states(self, user, s, who, want):
        """`user`'s summary shows `who` reaching member state `want` (e.g. "rejected(busy)")."""
        seen = ((s.get("group") or {}).get("members") or {}).get(who) or []
        self.need(f"{who} {want}" in seen, f"{user} saw {who}: {seen}, want {want}")

    def page_states(self, page, who, want):
        seen = (page.get("memberStates") or {}).get(who) or []
        self.need(want in seen, f"page saw {who}: {seen}, want {want}")

    def caller_saw(self, tern_calls, tern_summary, page, expected):
        """Each (member, state) of `expected` in the caller's view: Tern's `tern` or the page."""
        for who, state in expected:
            if tern_calls:
                self.tern_states("tern", tern_summary, who, state)
            else:
                self.page_states(page, who, state)

    def end_reason(self, user, s, want):
        self.need(s.get("endReason") == want, f"{user} ended {s.get('endReason')}, want {want}")

    def page_ok(self, page, ended=None):
        if not page:
            self.problems.append("no result from the page in time")
        self.need(not page.get("errors"), f"page errors: {(page.get('errors') or [])[:3]}")
        if ended is not None:
            self.need(page.get("ended") == ended, f"page ended {page.get('ended')}, want {ended}")

    def result(self, ok_detail):
        return {"pass": not self.problems, "figure": "; ".join(self.figure), "detail": "; ".join(self.problems) or ok_detail}


def run(case, role, prefix, tern_bin, browser, rm):
    """One group case in one role: the verdict dict of run-matrix."""
    rig = None
    try:
        rig = Rig(prefix, tern_bin, browser, rm)
        return SCENARIOS[case](rig, role == "offerer")
    except RuntimeError as e:
        return {"pass": False, "figure": "-", "detail": str(e)}
    finally:
        if rig:
            rig.close()


def mesh4(rig, tern_calls):
    answer = ["--answer", "--wait", "60"]
    rig.tern("bob", answer)
    rig.tern("carol", answer)
    if tern_calls:
        rig.page("group.html", dict(answer=1, mediaMs=60000))
        rig.tern("tern", ["--call", f"bob,carol,{PAGE}", "--duration", "8"])
    else:
        rig.tern("tern", answer)
        rig.page("group.html", dict(call="tern,bob,carol", mediaMs=8000))
    page, s = rig.finish()
    v = Verdict(rig.rm.PAGE_TONE_HZ)
    for user in TONES:
        v.tern_ok(user, *s[user])
        v.tern_media(user, s[user][1], [u for u in (*TONES, PAGE) if u != user])
    v.page_ok(page, ended="ended" if tern_calls else "endedByUs")
    v.page_media(page, list(TONES))
    return v.result("every member of the four heard and saw the three others")


def answers(rig, tern_calls):
    # The invitee who accepts is the page when Tern calls, Tern's `tern` when the page calls.
    rig.tern("bob", ["--answer", "--reject", "busy"])
    rig.tern("carol", ["--answer", "--answer-delay", "60"])
    if tern_calls:
        rig.page("group.html", dict(answer=1, mediaMs=5000))   # quits 5 s after its leg is up
        rig.tern("tern", ["--call", f"{PAGE},bob,carol", "--ring-timeout", "6", "--duration", "40"])
    else:
        rig.tern("tern", ["--answer"])
        rig.page("group.html", dict(call="tern,bob,carol", timeoutMs=6000, mediaMs=5000))
    page, s = rig.finish()
    v = Verdict(rig.rm.PAGE_TONE_HZ)
    for user in TONES:
        v.tern_ok(user, *s[user])
    v.end_reason("carol", s["carol"][1], "noAnswer")
    v.tern_media("tern", s["tern"][1], [PAGE])
    v.page_media(page, ["tern"])
    joined = [(PAGE, "accepted"), (PAGE, "quit")] if tern_calls else [("tern", "accepted")]
    v.caller_saw(tern_calls, s["tern"][1], page, [("bob", "rejected(busy)"), ("carol", "timeout")] + joined)
    v.end_reason("tern", s["tern"][1], "allLeft" if tern_calls else "remoteHangUp")
    v.page_ok(page, ended="quitByUs" if tern_calls else "endedByUs")
    v.figure.append(f"states {(s['tern'][1].get('group') or {}).get('members') if tern_calls else page.get('memberStates')}")
    return v.result("accepted, rejected(busy) and timeout tracked apart; media between the two in the call")


def invite_more(rig, tern_calls):
    rig.tern("carol", ["--answer", "--answer-delay", "60"])
    if tern_calls:   # tern calls bob; then invites the page and carol, cancels carol; bob quits; tern ends
        rig.tern("bob", ["--answer", "--duration", "9"])
        rig.page("group.html", dict(answer=1, mediaMs=60000))
        rig.tern("tern", ["--call", "bob", "--invite-more", f"{PAGE},carol", "--cancel-invite", "carol", "--duration", "13"])
    else:            # the page calls tern; then invites bob and carol, cancels carol; tern quits; the page ends
        rig.tern("tern", ["--answer", "--duration", "9"])
        rig.tern("bob", ["--answer"])
        rig.page("group.html", dict(call="tern", inviteMore="bob,carol", cancel="carol", mediaMs=10000))
    page, s = rig.finish()
    v = Verdict(rig.rm.PAGE_TONE_HZ)
    for user in TONES:
        v.tern_ok(user, *s[user])
    v.end_reason("carol", s["carol"][1], "cancelled")
    quitter = "bob" if tern_calls else "tern"
    for user in ("tern", "bob"):
        v.tern_media(user, s[user][1], [u for u in ("tern", "bob", PAGE) if u != user])
    v.page_media(page, ["tern", "bob"])
    joined = PAGE if tern_calls else "bob"   # the member invited more: the page when Tern calls, else bob
    v.caller_saw(tern_calls, s["tern"][1], page, [("carol", "cancelled"), (quitter, "quit"), (joined, "accepted")])
    if tern_calls:
        v.end_reason("tern", s["tern"][1], "localHangUp")
    else:
        v.end_reason("bob", s["bob"][1], "remoteHangUp")
    v.page_ok(page, ended="ended" if tern_calls else "endedByUs")
    v.figure.append(f"{quitter} quit, the call went on")
    return v.result("invited more during the call, cancelled one invitation, a member quit, the caller ended it")


def first_answer(rig, tern_calls):
    late = ["--answer", "--answer-delay", "60"]
    rig.tern("bob", late, group=False)
    rig.tern("carol", late, group=False)
    if tern_calls:
        rig.page("peer.html", dict(answer=1, audio=1, tone=TONES["tern"], mediaMs=10000))
        rig.tern("tern", ["--call", f"{PAGE},bob,carol", "--first-answer"], group=False)
    else:
        rig.tern("tern", ["--answer"], group=False)
        rig.page("peer.html", dict(call="tern,bob,carol", firstAnswer=1, audio=1, tone=660, mediaMs=6000))
    page, s = rig.finish()
    v = Verdict(rig.rm.PAGE_TONE_HZ)
    for user in TONES:
        v.tern_ok(user, *s[user])
    for user in ("bob", "carol"):
        v.end_reason(user, s[user][1], "answeredElsewhere")
    tone = ((s["tern"][1].get("media") or {}).get("audio") or {}).get("detectedToneHz")
    v.need(tone is not None and abs(tone - v.page_tone) <= 10, f"tern heard {tone} Hz, want the browser's {v.page_tone} Hz")
    peak = (page.get("audioIn") or {}).get("peakHz")
    want = 440 if tern_calls else 660
    v.need(peak is not None and abs(peak - want) <= 5, f"page heard {peak} Hz, want {want} Hz")
    v.page_ok(page)
    v.figure.append(f"tern hears {tone} Hz, page hears {peak} Hz; bob and carol: {s['bob'][1].get('endReason')}, "
                    f"{s['carol'][1].get('endReason')}")
    return v.result("the first to accept had the call; the two others saw answeredElsewhere")


SCENARIOS = {"group": mesh4, "group-answers": answers, "group-invite-more": invite_more, "group-first-answer": first_answer}

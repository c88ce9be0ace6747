// botdesk web's replay (/replay/ID): the flight recorder's stream (common/recording.h) decoded
// here - whole RFB FramebufferUpdates in ZRLE, CopyRect and Raw, one zlib stream across the
// recording (pako, from Debian's noVNC) - played on a canvas, with the timeline beside it: the
// agent's actions, the lease's changes, a human's input and exec starts. A click on an entry
// seeks there: forward by decoding on, backward by decoding again from the start (the zlib
// stream has no other way in).
import { inflateInit, inflate } from "/novnc/vendor/pako/lib/zlib/inflate.js";
import ZStream from "/novnc/vendor/pako/lib/zlib/zstream.js";

const id = document.querySelector("script[data-id]").dataset.id;
const base = "/replay/" + id;
const canvas = document.getElementById("screen");
const ctx = canvas.getContext("2d");
const seekBar = document.getElementById("seek");
const clock = document.getElementById("clock");
const playButton = document.getElementById("play");

const HEADER = 24;
const ENC_RAW = 0, ENC_COPYRECT = 1, ENC_ZRLE = 16, ENC_DESKTOP_SIZE = -223, ENC_EXT_SIZE = -308;

function records(buf) {
    const v = new DataView(buf);
    const magic = new TextDecoder().decode(new Uint8Array(buf, 0, 8));
    if (buf.byteLength < HEADER || magic !== "BDREC001") {
        throw new Error("not a recording");
    }
    const head = {
        start: v.getUint32(8) * 2 ** 32 + v.getUint32(12),
        w: v.getUint16(16), h: v.getUint16(18),
    };
    const out = [];
    for (let off = HEADER; off + 8 <= buf.byteLength;) {
        const t = v.getUint32(off), len = v.getUint32(off + 4);
        if (off + 8 + len > buf.byteLength) {
            break; // cut short: up to the last whole update
        }
        out.push({ t, msg: new Uint8Array(buf, off + 8, len) });
        off += 8 + len;
    }
    return { head, out };
}

class Screen {
    constructor(w, h) {
        this.resize(w, h);
        this.z = new ZStream();
        inflateInit(this.z);
        this.zout = new Uint8Array(0);
    }

    resize(w, h) {
        const img = new ImageData(w, h);
        const px = new Uint32Array(img.data.buffer);
        px.fill(0xff000000);
        if (this.px) {
            for (let y = 0; y < Math.min(h, this.h); y++) {
                px.set(this.px.subarray(y * this.w, y * this.w + Math.min(w, this.w)), y * w);
            }
        }
        this.img = img;
        this.px = px;
        this.w = w;
        this.h = h;
    }

    // A pixel of ours (B, G, R in the low bytes) as the canvas's RGBA word.
    static word(b, o) {
        return (0xff000000 | (b[o] << 16) | (b[o + 1] << 8) | b[o + 2]) >>> 0;
    }

    inflateRect(data, bound) {
        if (this.zout.length < bound) {
            this.zout = new Uint8Array(bound);
        }
        const z = this.z;
        z.input = data;
        z.next_in = 0;
        z.avail_in = data.length;
        z.output = this.zout;
        z.next_out = 0;
        z.avail_out = bound;
        while (z.avail_in > 0) {
            const r = inflate(z, 0);
            if (r < 0 || z.avail_out === 0) {
                throw new Error("zlib: " + r);
            }
            if (r === 1 /* Z_STREAM_END */) {
                break;
            }
        }
        return this.zout.subarray(0, z.next_out);
    }

    zrle(x, y, w, h, data) {
        const tiles = Math.ceil(w / 64) * Math.ceil(h / 64);
        const b = this.inflateRect(data, w * h * 5 + tiles * 64 + 1024);
        let o = 0;
        const px = this.px, W = this.w;
        const runLength = () => {
            let len = 1, c;
            do {
                c = b[o++];
                len += c;
            } while (c === 255);
            return len;
        };
        for (let ty = 0; ty < h; ty += 64) {
            for (let tx = 0; tx < w; tx += 64) {
                const tw = Math.min(64, w - tx), th = Math.min(64, h - ty);
                const x0 = x + tx, y0 = y + ty;
                const sub = b[o++];
                if (sub === 0) {
                    for (let j = 0; j < th; j++) {
                        for (let i = 0; i < tw; i++, o += 3) {
                            px[(y0 + j) * W + x0 + i] = Screen.word(b, o);
                        }
                    }
                } else if (sub === 1) {
                    const c = Screen.word(b, o);
                    o += 3;
                    for (let j = 0; j < th; j++) {
                        px.fill(c, (y0 + j) * W + x0, (y0 + j) * W + x0 + tw);
                    }
                } else if (sub <= 16) {
                    const pal = [];
                    for (let i = 0; i < sub; i++, o += 3) {
                        pal.push(Screen.word(b, o));
                    }
                    const bits = sub <= 2 ? 1 : sub <= 4 ? 2 : 4;
                    const rowBytes = Math.ceil(tw * bits / 8);
                    for (let j = 0; j < th; j++, o += rowBytes) {
                        for (let i = 0; i < tw; i++) {
                            const bit = i * bits;
                            const idx = (b[o + (bit >> 3)] >> (8 - bits - (bit & 7))) & ((1 << bits) - 1);
                            px[(y0 + j) * W + x0 + i] = pal[idx];
                        }
                    }
                } else if (sub === 128 || sub >= 130) {
                    const pal = [];
                    for (let i = 0; i < (sub === 128 ? 0 : sub - 128); i++, o += 3) {
                        pal.push(Screen.word(b, o));
                    }
                    for (let at = 0, total = tw * th; at < total;) {
                        let c, len = 1;
                        if (sub === 128) {
                            c = Screen.word(b, o);
                            o += 3;
                            len = runLength();
                        } else {
                            const k = b[o++];
                            c = pal[k & 127];
                            if (k & 128) {
                                len = runLength();
                            }
                        }
                        for (const end = Math.min(total, at + len); at < end; at++) {
                            px[(y0 + Math.floor(at / tw)) * W + x0 + at % tw] = c;
                        }
                    }
                } else {
                    throw new Error("ZRLE sub-encoding " + sub);
                }
            }
        }
    }

    apply(m) {
        const v = new DataView(m.buffer, m.byteOffset, m.byteLength);
        const n = v.getUint16(2);
        let o = 4;
        for (let i = 0; i < n; i++) {
            const x = v.getUint16(o), y = v.getUint16(o + 2), w = v.getUint16(o + 4), h = v.getUint16(o + 6);
            const enc = v.getInt32(o + 8);
            o += 12;
            if (enc === ENC_DESKTOP_SIZE) {
                this.resize(w, h);
            } else if (enc === ENC_EXT_SIZE) {
                o += 4 + 16 * m[o];
                this.resize(w, h);
            } else if (enc === ENC_COPYRECT) {
                const sx = v.getUint16(o), sy = v.getUint16(o + 2);
                o += 4;
                const tmp = [];
                for (let j = 0; j < h; j++) {
                    tmp.push(this.px.slice((sy + j) * this.w + sx, (sy + j) * this.w + sx + w));
                }
                tmp.forEach((row, j) => this.px.set(row, (y + j) * this.w + x));
            } else if (enc === ENC_RAW) {
                for (let j = 0; j < h; j++) {
                    for (let i = 0; i < w; i++, o += 4) {
                        this.px[(y + j) * this.w + x + i] = Screen.word(m, o);
                    }
                }
            } else if (enc === ENC_ZRLE) {
                const len = v.getUint32(o);
                this.zrle(x, y, w, h, m.subarray(o + 4, o + 4 + len));
                o += 4 + len;
            } else {
                throw new Error("encoding " + enc);
            }
        }
    }
}

class Player {
    constructor(rec, durationMs) {
        this.rec = rec;
        this.duration = durationMs;
        this.reset();
        this.playing = false;
    }

    reset() {
        this.screen = new Screen(this.rec.head.w, this.rec.head.h);
        this.next = 0;
        this.t = 0;
    }

    // Decodes every update up to t (ms since the start), from the start when t is behind us.
    seek(t) {
        t = Math.max(0, Math.min(t, this.duration));
        if (t < this.t) {
            this.reset();
        }
        const out = this.rec.out;
        while (this.next < out.length && out[this.next].t <= t) {
            this.screen.apply(out[this.next++].msg);
        }
        this.t = t;
        this.draw();
    }

    draw() {
        const s = this.screen;
        if (canvas.width !== s.w || canvas.height !== s.h) {
            canvas.width = s.w;
            canvas.height = s.h;
        }
        ctx.putImageData(s.img, 0, 0);
        seekBar.value = String(Math.round(this.t));
        clock.textContent = (this.t / 1000).toFixed(1) + " / " + (this.duration / 1000).toFixed(1) + " s";
        markCurrent(this.t);
        document.body.dataset.frame = String(Math.round(this.t));
    }

    play() {
        if (this.t >= this.duration) {
            this.seek(0);
        }
        this.playing = true;
        playButton.textContent = "Pause";
        const wall0 = performance.now(), t0 = this.t;
        const step = () => {
            if (!this.playing) {
                return;
            }
            this.seek(t0 + performance.now() - wall0);
            if (this.t >= this.duration) {
                this.pause();
            } else {
                requestAnimationFrame(step);
            }
        };
        requestAnimationFrame(step);
    }

    pause() {
        this.playing = false;
        playButton.textContent = "Play";
    }
}

function hasPixels(m) {
    const v = new DataView(m.buffer, m.byteOffset, m.byteLength);
    for (let i = 0, o = 4; i < v.getUint16(2); i++) {
        const enc = v.getInt32(o + 8);
        if (enc !== ENC_DESKTOP_SIZE && enc !== ENC_EXT_SIZE) {
            return true;
        }
        o += 12 + (enc === ENC_EXT_SIZE ? 4 + 16 * m[o + 12] : 0);
    }
    return false;
}

async function text(url) {
    const r = await fetch(url, { credentials: "same-origin" });
    return r.ok ? r.text() : "";
}

function lines(s) {
    return s.split("\n").filter((l) => l.startsWith("{") && l.endsWith("}")).map((l) => {
        try {
            return JSON.parse(l);
        } catch (e) {
            return null;
        }
    }).filter((e) => e);
}

let entries = [];

function markCurrent(t) {
    let cur = null;
    for (const e of entries) {
        if (e.offset <= t) {
            cur = e;
        }
    }
    for (const e of entries) {
        e.li.classList.toggle("current", e === cur);
    }
}

function timeline(meta, startMs, endMs, events, actions, player) {
    const list = document.getElementById("timeline");
    const items = [];
    for (const a of actions) {
        const t = Date.parse(a.time);
        if (t >= startMs && t <= endMs) {
            const where = a.x !== undefined ? " " + a.x + " " + a.y : "";
            items.push({ t, kind: "action", text: a.command + where });
        }
    }
    for (const e of events) {
        if (e.time_ms >= startMs && e.time_ms <= endMs) {
            const text = e.kind === "take" ? "take" + (e.reason ? ": " + e.reason : "")
                : e.kind === "input" ? "human input"
                    : e.kind === "exec" ? "exec " + e.program : e.kind;
            const kind = e.kind === "take" || e.kind === "release" ? "lease" : e.kind;
            items.push({ t: e.time_ms, kind, text });
        }
    }
    items.sort((a, b) => a.t - b.t);
    entries = items.map((it) => {
        const li = document.createElement("li");
        const offset = it.t - startMs;
        li.className = it.kind;
        li.textContent = "+" + (offset / 1000).toFixed(1) + " s  " + it.text;
        li.addEventListener("click", () => {
            player.pause();
            player.seek(offset);
        });
        list.appendChild(li);
        return { offset, li };
    });
    document.body.dataset.timeline = String(entries.length);
}

async function main() {
    const [buf, metaText, eventsText, actionsText, oldText] = await Promise.all([
        fetch(base + "/stream", { credentials: "same-origin" }).then((r) => {
            if (!r.ok) {
                throw new Error("no such recording");
            }
            return r.arrayBuffer();
        }),
        text(base + "/meta"), text(base + "/events"), text("/replay/actions"), text("/replay/actions.1"),
    ]);
    const rec = records(buf);
    const meta = Object.fromEntries(metaText.split("\n").filter((l) => l.includes("="))
        .map((l) => l.split("=")).map(([k, v]) => [k, Number(v)]));
    const startMs = rec.head.start;
    const last = rec.out.length ? rec.out[rec.out.length - 1].t : 0;
    const endMs = meta.end_ms > startMs ? meta.end_ms : startMs + last;
    const player = new Player(rec, Math.max(last, endMs - startMs));
    seekBar.max = String(player.duration);
    seekBar.addEventListener("input", () => {
        player.pause();
        player.seek(Number(seekBar.value));
    });
    playButton.addEventListener("click", () => (player.playing ? player.pause() : player.play()));
    timeline(meta, startMs, endMs, lines(eventsText), lines(oldText).concat(lines(actionsText)), player);
    // The first picture: the first update with pixels (the first may only say the screen's size).
    const first = rec.out.find((r) => hasPixels(r.msg));
    player.seek(first ? first.t : 0);
    window.botdeskReplay = player; // for the tests: seek and read the time
}

main().catch((e) => {
    document.body.dataset.error = String(e.message || e);
    clock.textContent = "cannot play this recording: " + (e.message || e);
});

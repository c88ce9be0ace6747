// botdesk web's page: the bar (who holds the desktop, Take over / Hand back) around noVNC, which
// is Debian's (/novnc/ is /usr/share/novnc). The server picks the door by the lease and closes
// the stream when the lease moves; we then make a new RFB object, without a reload.
//
// The page runs this as soon as it arrives (async), before its body may be parsed: the first
// lease read goes out at once, ahead of the page's modulepreloads of noVNC (low priority: six
// connections a host, and the lease, then the stream, come first). noVNC is imported by a
// relative name (the page serves this file and noVNC's under the same version prefix) and
// without waiting for it: the stream's proof goes on while its modules load, and only attaching
// the stream waits for them.

const $ = (id) => document.getElementById(id);
let lease = null;
let rfb = null;
// The page's key, from the first /lease this page read: the server it was loaded from. Every
// later answer and every stream must prove it (HMAC over a fresh nonce) before the page shows or
// sends anything: a stranger who binds the port after the server stops cannot.
let key = null;
let stopped = false;
let ticker = null;

const hex = (buf) => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, '0')).join('');

function nonce() {
    const b = new Uint8Array(16);
    crypto.getRandomValues(b);
    return hex(b);
}

async function proof(what, n) {
    const raw = new Uint8Array(key.match(/../g).map((h) => parseInt(h, 16)));
    const k = await crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    return hex(await crypto.subtle.sign('HMAC', k, new TextEncoder().encode('botdesk-web ' + what + ' ' + n)));
}

// Whatever answers here is not the server this page came from: nothing more goes to it.
function stop(why) {
    stopped = true;
    if (ticker) clearInterval(ticker);
    if (rfb) { const r = rfb; rfb = null; r.disconnect(); }
    $('toggle').disabled = true;
    $('link').textContent = why;
    window.botdeskStopped = why;
}

const IMPOSTOR = 'stopped: what answers at this address is not the server this page came from ' +
    '(it cannot prove the page\'s key); nothing more is sent to it. Get a fresh URL from botdesk web.';

function show(l) {
    lease = l;
    const human = l.holder === 'human';
    $('holder').textContent = human ? 'A human holds the desktop' : 'The agent holds the desktop';
    $('holder').dataset.holder = l.holder;
    const since = l.since > 0 ? ' since ' + new Date(l.since * 1000).toLocaleString() : '';
    $('detail').textContent = since + (l.reason ? ' (' + l.reason + ')' : '');
    // The agent asked for a human (botdesk ask): the first thing the bar says, until a take.
    const asked = !human && l.requested ? l.requested : null;
    $('holder').dataset.requested = asked ? 'yes' : '';
    if (asked) $('holder').textContent = 'The agent asks for a human' + (asked.reason ? ': ' + asked.reason : '') + ' — Take over';
    $('toggle').textContent = human ? 'Hand back' : 'Take over';
    $('toggle').disabled = false;
    document.title = 'botdesk ' + l.profile + ': ' + l.holder;
}

// A proven lease, or an error; touches nothing of the page (it may not be parsed yet).
async function readLease() {
    if (stopped) throw new Error('stopped');
    const n = nonce();
    const r = await fetch('/lease?nonce=' + n, { cache: 'no-store' });
    if (!r.ok) throw new Error('lease: ' + r.status);
    const l = await r.json();
    if (key === null && typeof l.key === 'string' && /^[0-9a-f]{64}$/.test(l.key)) key = l.key;
    if (key === null || l.proof !== await proof('lease', n)) throw new Error('impostor');
    return l;
}

async function shown(read) {
    let l;
    try {
        l = await read;
    } catch (e) {
        if (e.message === 'impostor') stop(IMPOSTOR);
        throw e;
    }
    show(l);
}

const refresh = () => shown(readLease());

async function reconnect() {
    $('link').textContent = 'reconnecting';
    // The lease moved (or the desktop or the server restarted): read it, then take the other door.
    for (let wait = 100; !stopped; wait = Math.min(wait * 2, 5000)) {
        try { await refresh(); break; } catch (e) { if (!stopped) await new Promise((ok) => setTimeout(ok, wait)); }
    }
    if (!stopped) connect();
}

// A stream: the server proves the page's key over our nonce before anything else; only then does
// the page say "go" (and the server connect the desktop's door) and noVNC take the socket (once it
// has loaded: the door's connection and the desktop's first message overlap its loading).
// ready: the lease read that gives the key (the first one runs while the stream opens: a stream is
// not one of the six connections a host that the page's other requests queue for).
function connect(ready = Promise.resolve()) {
    if (stopped) return;
    const url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/websockify';
    const ws = new WebSocket(url);
    ws.binaryType = 'arraybuffer';
    const n = nonce();
    let proven = false;
    $('link').textContent = 'connecting';
    ws.onopen = () => ws.send(n);
    ws.onclose = () => { if (!proven && !stopped) reconnect(); };
    ws.onmessage = async (e) => {
        ws.onmessage = null;
        const got = typeof e.data === 'string' ? e.data : new TextDecoder().decode(e.data);
        try {
            await ready;
        } catch (err) {
            // No proven lease, no key: nothing more on this stream (the page says why).
            ws.onclose = null;
            ws.close();
            return;
        }
        if (stopped || got !== await proof('websocket', n)) {
            ws.onclose = null;
            ws.close();
            stop(IMPOSTOR);
            return;
        }
        // The desktop's first bytes may come before noVNC has loaded: kept, in order, for it.
        const early = [];
        ws.onmessage = (m) => early.push(m.data);
        ws.send('go');
        let RFB;
        try {
            ({ default: RFB } = await rfbModule);
        } catch (err) {
            ws.onclose = null;
            ws.close();
            $('link').textContent = 'cannot load noVNC: reload';
            return;
        }
        // Closed while noVNC loaded: onclose has begun the reconnection.
        if (stopped || ws.readyState !== WebSocket.OPEN) return;
        proven = true;
        handOver(ws, early);
        attach(ws, RFB);
    };
}

// noVNC takes the socket a task after it is made (it sets ws.onmessage, then makes itself ready
// for the server's first message in the same task): the kept bytes go to it in a microtask after
// that, before any later message, which arrives as a task of its own. Until then the socket's
// handler stays the one that keeps them (a property on the object itself shadows only what
// scripts see).
function handOver(ws, early) {
    Object.defineProperty(ws, 'onmessage', {
        configurable: true,
        get() { return null; },
        set(handler) {
            delete ws.onmessage;
            ws.onmessage = handler;
            queueMicrotask(() => {
                for (const data of early) handler.call(ws, new MessageEvent('message', { data }));
            });
        },
    });
}

function attach(ws, RFB) {
    rfb = new RFB($('screen'), ws, { shared: true });
    rfb.scaleViewport = true;
    rfb.viewOnly = !lease || lease.holder !== 'human';
    // A human's desktop takes the window's size; the gate gives back the configured size when
    // they hand it back.
    rfb.resizeSession = !rfb.viewOnly;
    window.botdeskRfb = rfb;
    rfb.addEventListener('connect', () => { $('link').textContent = ''; window.botdeskConnected = (window.botdeskConnected || 0) + 1; });
    rfb.addEventListener('disconnect', () => {
        rfb = null;
        if (!stopped) reconnect();
    });
}

async function toggle() {
    if (stopped) return;
    $('toggle').disabled = true;
    const path = lease && lease.holder === 'human' ? '/release' : '/take';
    const r = await fetch(path, { method: 'POST', headers: { 'X-Botdesk-CSRF': lease.csrf } });
    // The bar shows only what a proven answer says.
    if (r.ok) await refresh().catch(() => {});
    if (!stopped) $('toggle').disabled = false;
}

const secure = !!(window.crypto && crypto.subtle);
const firstLease = secure ? readLease() : null;
firstLease?.catch(() => {}); // handled in start(); not an unhandled rejection before it runs
const rfbModule = import('../novnc/core/rfb.js');
rfbModule.catch(() => {}); // said when a stream needs it

function start() {
    $('toggle').addEventListener('click', toggle);
    // Another party's take or release: the server closes our stream, and the bar follows; this
    // slower look keeps the reason and the time current in between.
    ticker = setInterval(() => refresh().catch(() => {}), 5000);
    if (!secure) {
        stop('this page needs a secure context (https://, or http://localhost or 127.0.0.1) to check its server');
    } else {
        const ready = shown(firstLease);
        ready.catch(() => { if (!stopped) $('link').textContent = 'cannot read the lease: reload'; });
        connect(ready);
    }
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();

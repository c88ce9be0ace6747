// botdesk web's page: the bar (who holds the desktop, Take over / Hand back) around noVNC, which
// is Debian's (/novnc/ is /usr/share/novnc). The server picks the door by the lease and closes
// the stream when the lease moves; we then make a new RFB object, without a reload.
import RFB from '/novnc/core/rfb.js';

const $ = (id) => document.getElementById(id);
let lease = null;
let rfb = null;

function show(l) {
    lease = l;
    const human = l.holder === 'human';
    $('holder').textContent = human ? 'A human holds the desktop' : 'The agent holds the desktop';
    $('holder').dataset.holder = l.holder;
    const since = l.since > 0 ? ' since ' + new Date(l.since * 1000).toLocaleString() : '';
    $('detail').textContent = since + (l.reason ? ' (' + l.reason + ')' : '');
    $('toggle').textContent = human ? 'Hand back' : 'Take over';
    $('toggle').disabled = false;
    document.title = 'botdesk ' + l.profile + ': ' + l.holder;
}

async function refresh() {
    const r = await fetch('/lease', { cache: 'no-store' });
    if (!r.ok) throw new Error('lease: ' + r.status);
    show(await r.json());
}

function connect() {
    const url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/websockify';
    rfb = new RFB($('screen'), url, { shared: true });
    rfb.scaleViewport = true;
    rfb.viewOnly = !lease || lease.holder !== 'human';
    // A human's desktop takes the window's size; the gate gives back the configured size when
    // they hand it back.
    rfb.resizeSession = !rfb.viewOnly;
    window.botdeskRfb = rfb;
    $('link').textContent = 'connecting';
    rfb.addEventListener('connect', () => { $('link').textContent = ''; window.botdeskConnected = (window.botdeskConnected || 0) + 1; });
    rfb.addEventListener('disconnect', async () => {
        rfb = null;
        $('link').textContent = 'reconnecting';
        // The lease moved (or the desktop restarted): read it, then take the other door.
        for (let wait = 100; ; wait = Math.min(wait * 2, 5000)) {
            try { await refresh(); break; } catch (e) { await new Promise((ok) => setTimeout(ok, wait)); }
        }
        connect();
    });
}

async function toggle() {
    $('toggle').disabled = true;
    const path = lease && lease.holder === 'human' ? '/release' : '/take';
    const r = await fetch(path, { method: 'POST', headers: { 'X-Botdesk-CSRF': lease.csrf } });
    if (r.ok) show(await r.json());
    $('toggle').disabled = false;
}

$('toggle').addEventListener('click', toggle);
// Another party's take or release: the server closes our stream, and the bar follows; this
// slower look keeps the reason and the time current in between.
setInterval(() => refresh().catch(() => {}), 5000);
refresh().then(connect, () => { $('link').textContent = 'cannot read the lease: reload'; });

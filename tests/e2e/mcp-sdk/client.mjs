// For e2e-mcp-sdk: node client.mjs SDK_DIR BOTDESK RECORDER_FILE. The official MCP TypeScript SDK
// (its Client and StdioClientTransport, installed in SDK_DIR by ./install) runs `BOTDESK mcp` and
// drives it as an agent's harness does: the tool list, a screenshot (an image sized for the model,
// 1389x868 of a 1440x900 screen), a click and typing (checked in the recorder's file: what reached
// the desktop), a batch, and a human's take (`BOTDESK take`): the click and the batch are refused
// as tool errors and nothing arrives. Exits non-zero with the first failure.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

const [sdkDir, botdesk, rec] = process.argv.slice(2);
const dist = `${sdkDir}/node_modules/@modelcontextprotocol/sdk/dist/esm`;
const { Client } = await import(`${dist}/client/index.js`);
const { StdioClientTransport } = await import(`${dist}/client/stdio.js`);

function fail(msg) {
    console.error(`FAIL: ${msg}`);
    process.exit(1);
}

const recLines = () => readFileSync(rec, "utf8").split("\n").filter((l) => l);

// Waits (bounded) until the recorder has line after its first `from` lines. The recorder's file
// is the only witness, and no event crosses from it to here: polled with a deadline.
async function recWait(line, from) {
    const deadline = Date.now() + 15000;
    while (!recLines().slice(from).includes(line)) {
        if (Date.now() > deadline) {
            fail(`the recorder never got '${line}': ${recLines().slice(from).slice(-10)}`);
        }
        await new Promise((r) => setTimeout(r, 20));
    }
}

// (width, height) from a JPEG's frame header.
function jpegSize(buf) {
    if (buf[0] !== 0xff || buf[1] !== 0xd8) fail("the screenshot is not a JPEG");
    for (let i = 2; i + 9 < buf.length; ) {
        const marker = buf[i + 1], len = buf.readUInt16BE(i + 2);
        if (marker >= 0xc0 && marker <= 0xc2) return [buf.readUInt16BE(i + 7), buf.readUInt16BE(i + 5)];
        i += 2 + len;
    }
    fail("a JPEG without a frame header");
}

const textOf = (res) => JSON.parse(res.content.find((c) => c.type === "text").text);

// The server runs as this user with the test's settings: the transport's default environment
// is a short safe list, which would lose BOTDESK_STATE_DIR and the build tree's programs.
const transport = new StdioClientTransport({ command: botdesk, args: ["mcp"], env: { ...process.env }, stderr: "inherit" });
const client = new Client({ name: "botdesk-e2e-sdk", version: "1.0.0" });
await client.connect(transport);
const server = client.getServerVersion();
if (server?.name !== "botdesk") fail(`the server says it is ${JSON.stringify(server)}`);

const { tools } = await client.listTools();
const names = tools.map((t) => t.name);
for (const want of ["screenshot", "click", "type", "key", "batch", "status", "lease"]) {
    if (!names.includes(want)) fail(`tools/list has no ${want}: ${names}`);
}
for (const t of tools) {
    if (t.inputSchema?.type !== "object" || !t.description) fail(`tool ${t.name} without a schema or description`);
}

// The default screenshot: a JPEG of the model's size, and its size and scale in words.
const shot = await client.callTool({ name: "screenshot", arguments: {} });
const img = shot.content.find((c) => c.type === "image");
if (shot.isError || !img || img.mimeType !== "image/jpeg") fail(`screenshot: ${JSON.stringify(shot).slice(0, 300)}`);
const [w, h] = jpegSize(Buffer.from(img.data, "base64"));
if (w !== 1389 || h !== 868) fail(`the screenshot is ${w}x${h}, not 1389x868`);
const said = textOf(shot);
if (said.width !== 1389 || said.height !== 868 || said.screen !== "1440x900") fail(`screenshot says ${JSON.stringify(said)}`);

// A click in the picture's space lands at the centre of the screen area its pixel covers.
const fromModel = (p, pic, screen) => Math.floor(((2 * p + 1) * screen) / (2 * pic));
let n = recLines().length;
const mx = fromModel(1000, 1389, 1440), my = fromModel(600, 868, 900);
const clicked = await client.callTool({ name: "click", arguments: { x: 1000, y: 600 } });
if (clicked.isError || textOf(clicked).x !== mx || textOf(clicked).y !== my) fail(`click: ${JSON.stringify(clicked)}`);
await recWait(`release 1 ${mx} ${my}`, n);
if (!recLines().slice(n).includes(`press 1 ${mx} ${my}`)) fail(`the click did not land at ${mx},${my}`);

n = recLines().length;
const typed = await client.callTool({ name: "type", arguments: { text: "sdk!" } });
if (typed.isError || textOf(typed).characters !== 4) fail(`type: ${JSON.stringify(typed)}`);
await recWait("char U+0021", n);
const chars = recLines().slice(n).filter((l) => l.startsWith("char ")).map((l) => l.slice(5));
if (chars.join(" ") !== "U+0073 U+0064 U+006B U+0021") fail(`typed: ${chars}`);

// A batch: two clicks in screen pixels and a key, in order, one result each.
n = recLines().length;
const batch = await client.callTool({
    name: "batch",
    arguments: {
        steps: [
            { tool: "click", arguments: { x: 200, y: 210, from: "1440x900" } },
            { tool: "click", arguments: { x: 300, y: 310, from: "1440x900" } },
            { tool: "key", arguments: { keys: ["Return"] } },
        ],
    },
});
const sum = textOf(batch);
if (batch.isError || sum.status !== "done" || sum.done !== 3 || sum.results.length !== 3) fail(`batch: ${JSON.stringify(batch)}`);
if (sum.results[1].result.x !== 300) fail(`batch's second result: ${JSON.stringify(sum.results[1])}`);
await recWait("key 0xff0d 0", n);
const got = recLines().slice(n);
const first = got.indexOf("press 1 200 210"), second = got.indexOf("press 1 300 310");
if (first < 0 || second < first) fail(`the batch's clicks, in order: ${got}`);

// A human takes the desktop: a call is a tool error saying so, and a batch runs no step.
const take = spawnSync(botdesk, ["take", "--reason", "sdk"], { stdio: ["ignore", "ignore", "inherit"] });
if (take.status !== 0) fail(`botdesk take: exit ${take.status}`);
n = recLines().length;
const refused = await client.callTool({ name: "click", arguments: { x: 5, y: 5 } });
const refusedText = refused.content[0]?.text ?? "";
if (!refused.isError || !refusedText.includes("a human holds the desktop")) fail(`click under a human's lease: ${JSON.stringify(refused)}`);
const held = await client.callTool({ name: "batch", arguments: { steps: [{ tool: "click", arguments: { x: 6, y: 6 } }] } });
if (!held.isError || !held.content[0].text.includes("a human holds the desktop")) fail(`batch under a human's lease: ${JSON.stringify(held)}`);
const release = spawnSync(botdesk, ["release"], { stdio: ["ignore", "ignore", "inherit"] });
if (release.status !== 0) fail(`botdesk release: exit ${release.status}`);
// A marker after the hand-back: nothing of the refused calls came before it.
await client.callTool({ name: "click", arguments: { x: 7, y: 7, from: "1440x900" } });
await recWait("release 1 7 7", n);
const between = recLines().slice(n);
if (between.indexOf("press 1 7 7") !== between.findIndex((l) => l.startsWith("press "))) fail(`events arrived under the human's lease: ${between}`);

await client.close();
console.log(`ok: the MCP TypeScript SDK drove botdesk mcp (${names.length} tools)`);

#!/usr/bin/env bash
# deploy/ parses as Kubernetes YAML and names the image's real command and user, with no way to
# escalate privilege.
source "$BD_SRCDIR/tests/lib.sh"
python3 -c 'import yaml' 2>/dev/null || bd_skip "python3-yaml is not installed"
python3 - "$BD_SRCDIR" <<'PY'
import pathlib, re, sys, yaml
root = pathlib.Path(sys.argv[1])
docker = (root / "Dockerfile").read_text()
user = re.findall(r"^USER (\S+)", docker, re.M)[-1]
cmd = re.findall(r'^CMD (\[.*\])', docker, re.M)[-1]
import json
cmd = json.loads(cmd)
found = 0
for path in sorted((root / "deploy").glob("*.yaml")):
    for doc in yaml.safe_load_all(path.read_text()):
        assert isinstance(doc, dict) and "kind" in doc and "apiVersion" in doc, f"{path}: not a Kubernetes object"
        spec = doc.get("spec", {}).get("template", {}).get("spec")
        if not spec:
            continue
        pod_sc = spec.get("securityContext", {})
        assert str(pod_sc.get("runAsUser")) == user, f"{path}: runAsUser {pod_sc.get('runAsUser')} is not the image's USER {user}"
        assert pod_sc.get("runAsNonRoot") is True, f"{path}: runAsNonRoot is not set"
        for c in spec["containers"]:
            found += 1
            if "command" in c:
                assert c["command"] + c.get("args", []) == cmd, f"{path}: {c['name']} runs {c['command']}, the image runs {cmd}"
            sc = c.get("securityContext", {})
            assert sc.get("allowPrivilegeEscalation") is False, f"{path}: {c['name']} may escalate privilege"
            assert sc.get("privileged") is not True, f"{path}: {c['name']} is privileged"
            assert "ALL" in sc.get("capabilities", {}).get("drop", []), f"{path}: {c['name']} keeps capabilities"
            # /tmp/.X11-unix must stay the image's (root's, 1777): no volume may hide it.
            for m in c.get("volumeMounts", []):
                assert m["mountPath"].rstrip("/") not in ("/tmp", "/tmp/.X11-unix"), f"{path}: {c['name']} mounts a volume on {m['mountPath']}, hiding the image's /tmp/.X11-unix"
assert found, "no pod template in deploy/"
print(f"deploy: {found} container(s) match the image (USER {user}, CMD {cmd})")
PY

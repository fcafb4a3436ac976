#!/bin/bash
# walkthrough/add-a-protocol: runs myp-rack.yaml with an inasim-run that links the walk-through's
# protocol (test/add-a-protocol/), and checks what the walk-through promises: the scenario names
# protocol "myp" and runs, both jobs complete with every value right, and the one change from ATP
# happened (the switch counted collisions and nothing fell back to the parameter server).
set -euo pipefail
run=$1; scenario=$2; out=$3
rm -rf "$out"
mkdir -p "$(dirname "$out")"  # a clean build tree has no walkthrough/ yet: the log goes beside $out
"$run" "$scenario" --out "$out" > "$out.log" 2>&1 || { cat "$out.log"; exit 1; }
cat "$out.log"
grep -Eq 'job myp-a \(myp, 4 workers\): completed.* 0/[0-9]+ values wrong' "$out.log"
grep -Eq 'job myp-b \(myp, 4 workers\): completed.* 0/[0-9]+ values wrong' "$out.log"
python3 - "$out/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
text = json.dumps(s)
# The switch's reason counters: collisions dropped (myp's change) ...
collisions = [int(x) for x in __import__("re").findall(r'"collision": (\d+)', text)]
assert collisions and max(collisions) > 0, "no collision counted at the switch"
# ... and none sent on to the PS (ATP's fallback, which myp removed).
ps = [int(x) for x in __import__("re").findall(r'"ps_collision_packets": (\d+)', text)]
assert all(v == 0 for v in ps), "collisions reached the parameter server: %s" % ps
print("add-a-protocol: OK (%d collisions dropped at the switch)" % max(collisions))
PY

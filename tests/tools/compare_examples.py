#!/usr/bin/env python3
"""Compare every example project's results between two builds of pneumech.

    tests/tools/compare_examples.py OLD_PNEUMECH NEW_PNEUMECH [--projects DIR] [--tol REL]

Runs `simulate` on each projects/*.pneumech.json with both executables, then
reports per example whether the CSVs are byte-identical and, if not, the
largest difference of each channel relative to the largest magnitude of that
channel, and the key results (`pneumech results --json`) that changed.
Exit 1 when any example differs by more than --tol (default 0: byte-identical),
so it can check a refactoring that must not change a single result.
"""
import argparse, csv, glob, json, os, subprocess, sys, tempfile


def run(exe, project, out):
    r = subprocess.run([exe, "simulate", project, "--out", out], capture_output=True, text=True)
    return r.returncode, r.stderr.strip()


def key_results(exe, project):
    r = subprocess.run([exe, "results", project, "--json"], capture_output=True, text=True)
    try:
        return json.loads(r.stdout) if r.returncode == 0 else None
    except json.JSONDecodeError:
        return None


def columns(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    head, body = rows[0], rows[1:]
    return head, [[float(x) for x in col] for col in zip(*body)] if body else [[] for _ in head]


def flatten(prefix, v, out):
    if isinstance(v, dict):
        for k, x in v.items():
            flatten(f"{prefix}.{k}" if prefix else k, x, out)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            flatten(f"{prefix}[{i}]", x, out)
    else:
        out[prefix] = v
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--projects", default=os.path.join(os.path.dirname(__file__), "..", "..", "projects"))
    ap.add_argument("--tol", type=float, default=0.0)
    ap.add_argument("--top", type=int, default=5, help="channels listed per example")
    ap.add_argument("--keys", default="", help="only key results whose name contains one of these comma-separated words")
    a = ap.parse_args()
    worst_all = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for project in sorted(glob.glob(os.path.join(a.projects, "*.pneumech.json"))):
            name = os.path.basename(project).replace(".pneumech.json", "")
            fo, fn = os.path.join(tmp, name + ".old.csv"), os.path.join(tmp, name + ".new.csv")
            (ro, eo), (rn, en) = run(a.old, project, fo), run(a.new, project, fn)
            if ro != 0 or rn != 0:
                print(f"{name}: exit {ro} (old) / {rn} (new)\n  old: {eo[-300:]}\n  new: {en[-300:]}")
                worst_all = float("inf") if ro != rn else worst_all
                continue
            if open(fo, "rb").read() == open(fn, "rb").read():
                print(f"{name}: byte-identical")
                continue
            ho, co = columns(fo)
            hn, cn = columns(fn)
            if len(co[0]) != len(cn[0]):
                print(f"{name}: rows differ ({len(co[0])}/{len(cn[0])})")
                worst_all = float("inf")
                continue
            if ho != hn:
                # Compare the channels both have; name the others.
                gone, added = [h for h in ho if h not in hn], [h for h in hn if h not in ho]
                print(f"{name}: {len(added)} channels added, {len(gone)} gone"
                      + (f" (gone: {', '.join(gone[:5])})" if gone else ""))
                if gone:
                    worst_all = float("inf")
                common = [h for h in ho if h in hn]
                co = [co[ho.index(h)] for h in common]
                cn = [cn[hn.index(h)] for h in common]
                ho = hn = common
                if co == cn:
                    print(f"{name}: the {len(common)} common channels are identical")
                    continue
            # A channel's difference relative to the largest magnitude among the
            # channels of its unit, at least 1e-3 SI: an out-of-plane angle of
            # 1e-38 rad is rounding noise next to the 1 rad of its neighbours.
            unit = lambda h: h[h.rfind("[") :] if "[" in h else ""
            scales = {}
            for h, x in zip(ho, co):
                scales[unit(h)] = max(scales.get(unit(h), 0.0), max((abs(v) for v in x), default=0.0))
            diffs = []
            for h, x, y in zip(ho, co, cn):
                scale = max(scales[unit(h)], 1e-3)
                d = max((abs(u - v) for u, v in zip(x, y)), default=0.0) / scale
                diffs.append((d, h, max(abs(u - v) for u, v in zip(x, y)), x[-1], y[-1]))
            diffs.sort(reverse=True)
            worst_all = max(worst_all, diffs[0][0])
            print(f"{name}: largest relative difference {diffs[0][0]:.3g}")
            for d, h, absd, lo, ln in diffs[: a.top]:
                print(f"  {h}: {d:.3g} of its range (abs {absd:.4g}; final {lo:.6g} -> {ln:.6g})")
            ko, kn = key_results(a.old, project), key_results(a.new, project)
            if ko is not None and kn is not None:
                fo_, fn_ = flatten("", ko, {}), flatten("", kn, {})
                for k in sorted(set(fo_) | set(fn_)):
                    if a.keys and not any(w in k for w in a.keys.split(",")):
                        continue
                    if fo_.get(k) != fn_.get(k):
                        print(f"  key result {k}: {fo_.get(k)} -> {fn_.get(k)}")
    print(f"largest relative difference over all examples: {worst_all:.3g} (tolerance {a.tol:.3g})")
    return 0 if worst_all <= a.tol else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Check that the source folders include each other one way only.

    tests/tools/check_layers.py [SOURCE_DIR]

Every quoted #include of core/, gui/ and app/ is resolved to the folder it
names. An include into a higher layer fails, and so does a cycle between
folders of the same layer, an include FORBIDDEN below, or gui/ and app/
reaching into core/ past the model and the engine API (CORE_SEEN_FROM).
Exit 0 when clean, 1 with one line per offending include
("file:line: include -> why"). Registered with CTest (check_layers).

tests/ is scanned too, as the top layer (a test may test any layer), with
two rules:
  - a test of the studio (test_gui*, bench_gui*) sees core/ as the studio
    does: model and engine only (CORE_SEEN_FROM["gui"]), so the studio's
    tests drive it through the API it uses itself;
  - any other test, of core/, includes nothing of gui/ or app/, so the core's
    tests build and run without Qt Widgets or OpenGL (the sanitizer tree).
Shared helpers (tests/support) serve both kinds and are not followed.
"""
import os, re, sys

# Lowest first. A folder may include its own layer's folders (as long as no
# cycle forms) and any lower layer, never a higher one. A new folder must be
# placed here: an include into an unlisted folder fails.
LAYERS = [
    ["model"],                                    # Project, ids, parameters, units, tables
    ["element"],                                  # the element contract
    ["control", "mechanics", "pneumatics", "script", "user"],  # domains: implement the contract
    ["io"],                                       # project and mechanism files
    ["solver"],                                   # System, IDA runs, linear algebra
    ["build"],                                    # Project -> System, all validation
    ["analyses", "results"],                      # statics, kinematics, key results
    ["studies"],                                  # parameter studies, optimisation: whole runs
    ["engine"],                                   # the one API of the CLI and studio
    ["gui"],                                      # the studio's widgets
    ["app"],                                      # executables
]

# Lower folders a folder must not use although they sit below it: the
# solver sees elements only through the contract (element/), never gas,
# valves or joints.
FORBIDDEN = {
    "solver": {"control", "mechanics", "pneumatics", "script"},
}

# The studio and the executables see the engine through its one API: of
# core/ they may include only these folders (the model they edit and
# engine/engine.h). No exceptions are needed; add one here only with the
# reason next to it.
CORE_SEEN_FROM = {
    "gui": {"model", "engine"},
    "app": {"model", "engine"},
}

# Includes that still point up, each to be removed by the named piece of
# work: "file -> include". An entry here is no longer reported; an entry that
# no longer matches is reported as stale (so the list only shrinks).
KNOWN = set()

# Tests of the studio that still include core/ past the engine, each to be
# moved onto engine/engine.h: "tests/file -> include". Only shrinks, as KNOWN.
KNOWN_TESTS = set()

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def layer_of():
    rank = {}
    for i, folders in enumerate(LAYERS):
        for f in folders:
            rank[f] = i
    return rank


def folder_of(root, path):
    """'core/solver/system.h' -> 'solver'; 'gui/x.h' -> 'gui'; else None."""
    parts = os.path.relpath(path, root).split(os.sep)
    if parts[0] == "core" and len(parts) > 2:
        return parts[1]
    if parts[0] in ("gui", "app"):
        return parts[0]
    return None


def target_in_core(root, path):
    return os.path.relpath(path, root).split(os.sep)[0] == "core"


def resolve(root, src, inc):
    """The file an include names, searched as the build does: the including
    file's folder, then core/ and gui/ (the include directories)."""
    for base in (os.path.dirname(src), os.path.join(root, "core"), os.path.join(root, "gui")):
        p = os.path.normpath(os.path.join(base, inc))
        if os.path.isfile(p):
            return p
    return None


def sources(root):
    for top in ("core", "gui", "app"):
        for d, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                if f.endswith((".h", ".hpp", ".cpp")):
                    yield os.path.join(d, f)


def test_sources(root):
    for d, _, files in os.walk(os.path.join(root, "tests")):
        for f in sorted(files):
            if f.endswith((".h", ".hpp", ".cpp")) and os.sep + "support" not in d[len(root):]:
                yield os.path.join(d, f)


def check_tests(root, errors, seen_known):
    """The two rules of tests/ (module docstring); returns the files checked."""
    count = 0
    for src in test_sources(root):
        count += 1
        rel = os.path.relpath(src, root)
        found = []  # (line, include, folder, in core)
        with open(src, encoding="utf-8", errors="replace") as fh:
            for n, line in enumerate(fh, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = resolve(root, src, m.group(1))
                if target is None:
                    continue
                b = folder_of(root, target)
                if b is not None:
                    found.append((n, m.group(1), b, target_in_core(root, target)))
        name = os.path.basename(src)
        studio = name.startswith(("test_gui", "bench_gui"))
        for n, inc, b, core in found:
            where = f"{rel}:{n}: {inc}"
            key = f"{rel} -> {inc}"
            if studio and core and b not in CORE_SEEN_FROM["gui"]:
                if key in KNOWN_TESTS:
                    seen_known.add(key)
                    continue
                errors.append(f"{where} -> a test of the studio may use only "
                              f"{', '.join(sorted(CORE_SEEN_FROM['gui']))} of core/, as gui/ does (check_layers.py)")
            elif not studio and b in ("gui", "app"):
                errors.append(f"{where} -> a test of core/ must not use {b}/ (name it test_gui_*; check_layers.py)")
    return count


def cycles(edges):
    """Strongly connected components with more than one folder (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    nodes = sorted({a for a, _ in edges} | {b for _, b in edges})
    succ = {n: sorted({b for a, b in edges if a == n}) for n in nodes}

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in succ[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(set(comp))

    for n in nodes:
        if n not in index:
            visit(n)
    return out


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", ".."))
    rank = layer_of()
    errors, seen_known = [], set()
    same_layer = {}  # (from folder, to folder) -> first "file:line: include"
    for src in sources(root):
        a = folder_of(root, src)
        rel = os.path.relpath(src, root)
        if a not in rank:
            errors.append(f"{rel}: folder '{a}' is not in LAYERS (tests/tools/check_layers.py): place it")
            continue
        with open(src, encoding="utf-8", errors="replace") as fh:
            for n, line in enumerate(fh, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                inc = m.group(1)
                target = resolve(root, src, inc)
                if target is None:
                    continue  # a third-party or generated header
                b = folder_of(root, target)
                if b is None or b == a:
                    continue
                where = f"{rel}:{n}: {inc}"
                if b not in rank:
                    errors.append(f"{where} -> folder '{b}' is not in LAYERS: place it")
                    continue
                key = f"{rel} -> {inc}"
                if key in KNOWN:
                    seen_known.add(key)
                    continue
                if a in CORE_SEEN_FROM and target_in_core(root, target) and b not in CORE_SEEN_FROM[a]:
                    errors.append(f"{where} -> {a} may use only {', '.join(sorted(CORE_SEEN_FROM[a]))} of core/ "
                                  "(CORE_SEEN_FROM in check_layers.py)")
                elif b in FORBIDDEN.get(a, ()):
                    errors.append(f"{where} -> {a} must not use {b} (FORBIDDEN in check_layers.py)")
                elif rank[b] > rank[a]:
                    errors.append(f"{where} -> upward include: {a} (layer {rank[a]}) must not use {b} (layer {rank[b]})")
                elif rank[b] == rank[a]:
                    same_layer.setdefault((a, b), where)
    for comp in cycles(set(same_layer)):
        for (a, b), where in sorted(same_layer.items()):
            if a in comp and b in comp:
                errors.append(f"{where} -> include cycle between folders {', '.join(sorted(comp))}")
    tests = check_tests(root, errors, seen_known)
    for key in sorted((KNOWN | KNOWN_TESTS) - seen_known):
        print(f"note: KNOWN entry no longer found, remove it: {key}")
    for e in errors:
        print(e)
    if errors:
        print(f"{len(errors)} include(s) against the layer order (lowest first): "
              + " <- ".join("/".join(f) for f in LAYERS))
        return 1
    print(f"layers one way: {sum(1 for _ in sources(root))} files and {tests} test files checked, "
          f"{len(seen_known)} known exception(s) left")
    return 0


if __name__ == "__main__":
    sys.exit(main())

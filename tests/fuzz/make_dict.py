#!/usr/bin/env python3
"""Writes tests/fuzz/project.dict, the libFuzzer dictionary of fuzz_project:
JSON syntax, every key and word value of the example projects, and every
component type and parameter name `pneumech types` lists.
Usage: tests/fuzz/make_dict.py build/bin/pneumech   (from the source root)"""
import glob, json, re, subprocess, sys

words = set()

def walk(v):
    if isinstance(v, dict):
        for k, x in v.items():
            words.add(k)
            walk(x)
    elif isinstance(v, list):
        for x in v:
            walk(x)
    elif isinstance(v, str) and re.fullmatch(r'[A-Za-z_][A-Za-z0-9_]{0,29}', v):
        words.add(v)

for f in glob.glob('projects/*.pneumech.json'):
    walk(json.load(open(f)))
types = subprocess.run([sys.argv[1], 'types'], capture_output=True, text=True, check=True).stdout
for line in types.splitlines():
    m = re.match(r'(\s*)([A-Za-z_][A-Za-z0-9_]*)\s', line)
    if m:
        words.add(m.group(2))

out = ['# libFuzzer dictionary of fuzz_project (written by tests/fuzz/make_dict.py).']
for t in ['{', '}', '[', ']', ':', ',', '"', 'true', 'false', 'null', '-', '1e308', '1e-300', '0.0', '-1', '"inf"', '"-inf"']:
    out.append('"%s"' % t.replace('\\', '\\\\').replace('"', '\\"'))
out += ['"\\"%s\\""' % w for w in sorted(words)]
open('tests/fuzz/project.dict', 'w').write('\n'.join(out) + '\n')
print(len(out), 'entries')

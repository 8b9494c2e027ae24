#!/usr/bin/env python3
"""Check that no function in core/ is longer than LIMIT lines.

    tests/tools/check_function_length.py [SOURCE_DIR] [--limit N] [--list N]

A function's length is counted from the line of its opening brace to the
line of its closing brace. Function bodies are found by counting braces in
the text with comments, strings and preprocessor lines removed: a brace at
namespace or class level opens a function when the text before it (since the
last ';' or brace at that level) has a parameter list and ends as a function
header does (')', a qualifier, a trailing return type, or a constructor's
initializer list). Lambdas and local classes count as part of their function.
Exit 0 when every function is within the limit, 1 naming each one that is
not ("file:line: name: N lines"). --list N prints the N longest. Registered
with CTest (check_function_length).
"""
import os, re, sys

LIMIT = 150
QUALIFIERS = ("const", "override", "final", "noexcept", "mutable", "volatile", "&", "&&")
SCOPE_KEYWORDS = re.compile(r"^(template\s*<.*?>\s*)?(inline\s+)?(namespace|class|struct|union|enum)\b|^extern\s*$", re.S)


def strip(text):
    """The text with comments, string and char literals and preprocessor
    lines blanked out (newlines kept, so line numbers stay)."""
    out, i, n = [], 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == "#":
            # A preprocessor line, with its continuations.
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append("\n")
                    i += 2
                    continue
                i += 1
            continue
        if c == "\n":
            out.append(c)
            line_start = True
            i += 1
            continue
        if not c.isspace():
            line_start = False
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
            continue
        m = re.match(r'R"([^(\s]*)\(', text[i:i + 20]) if c == "R" and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")) else None
        if m:
            end = ")" + m.group(1) + '"'
            j = text.find(end, i + m.end())
            j = n if j < 0 else j + len(end)
            out.append('""' + re.sub(r"[^\n]", " ", text[i + 2:j]))
            i = j
            continue
        if c in "\"'":
            # A digit separator (1'000) is no char literal.
            if c == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum():
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


def top_level(header):
    """The header with everything inside (), <> and {} removed."""
    out, depth = [], 0
    for ch in header:
        if ch in "({":
            depth += 1
        elif ch in ")}":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def kind_of(header):
    """What a brace at namespace or class level opens: 'scope' (namespace,
    class...), 'function', 'init-in-header' (a constructor's member
    initializer in braces) or 'init' (an initializer)."""
    h = " ".join(header.split())
    if not h:
        return "init"
    if SCOPE_KEYWORDS.match(h) or re.search(r"\b(class|struct|union|enum)\b", top_level(h)) and "(" not in top_level(h):
        return "scope"
    if h.startswith("extern") and h.endswith('""'):
        return "scope"
    if "(" not in h:
        return "init"
    flat = top_level(h)
    if re.search(r"(?<![=!<>+\-*/%&|^])=(?!=)", flat.replace("operator", "")) and not re.search(r"\boperator\s*\S*=", h):
        return "init"  # "x = {...}", a lambda or table at namespace scope
    tail = h.rstrip()
    if tail.endswith(")") or tail.endswith("}") or tail.split()[-1] in QUALIFIERS:
        return "function"
    if re.search(r"->\s*[\w:<>,\s\*&]+$", tail):
        return "function"  # trailing return type
    if re.search(r"\)\s*(const\s*)?(noexcept\s*)?:", h):
        return "init-in-header"
    return "init"


def name_of(header):
    """'Compiler::compile' of 'std::unique_ptr<System> Compiler::compile(...) const'."""
    h = " ".join(header.split())
    m = re.search(r"((?:[\w~]+(?:<[^()]*>)?::)*(?:operator\s*\S+?|[\w~]+))\s*\(", h)
    return m.group(1) if m else h[-60:]


def functions(text):
    """(first line, last line, header) of every function body in `text`."""
    s = strip(text)
    stack = []  # 'scope' | 'function' | 'init' | 'init-in-header'
    header, header_line = [], None
    line = 1
    fn_start = None
    out = []
    for ch in s:
        if ch == "\n":
            line += 1
        in_fn = any(k == "function" for k in stack)
        if in_fn:
            if ch == "{":
                stack.append("block")
            elif ch == "}":
                k = stack.pop()
                if k == "function":
                    out.append((fn_start[0], line, fn_start[1]))
            continue
        in_init = stack and stack[-1] in ("init", "init-in-header")
        if ch == "{":
            if in_init:
                stack.append(stack[-1])
                if stack[-1] == "init-in-header":
                    header.append(ch)
                continue
            text_h = "".join(header).strip()
            k = kind_of(text_h)
            if k == "function":
                fn_start = (line, name_of(text_h))
                header = []
            elif k == "init-in-header":
                header.append(ch)
            else:
                header = []
            stack.append(k)
        elif ch == "}":
            k = stack.pop() if stack else "scope"
            if k == "init-in-header":
                header.append(ch)
            elif k == "scope":
                header = []
        elif ch == ";":
            if not in_init:
                header = []
        else:
            if not in_init or stack[-1] == "init-in-header":
                header.append(ch)
    return out


def main():
    args = sys.argv[1:]
    limit, show = LIMIT, 0
    if "--limit" in args:
        i = args.index("--limit")
        limit = int(args[i + 1])
        del args[i:i + 2]
    if "--list" in args:
        i = args.index("--list")
        show = int(args[i + 1])
        del args[i:i + 2]
    root = os.path.abspath(args[0] if args else os.path.join(os.path.dirname(__file__), "..", ".."))
    found, files = [], 0
    for d, _, names in os.walk(os.path.join(root, "core")):
        for f in sorted(names):
            if not f.endswith((".h", ".hpp", ".cpp")):
                continue
            path = os.path.join(d, f)
            files += 1
            with open(path, encoding="utf-8", errors="replace") as fh:
                for first, last, name in functions(fh.read()):
                    found.append((last - first + 1, os.path.relpath(path, root), first, name))
    found.sort(reverse=True)
    for n, rel, first, name in found[:show]:
        print(f"{n:5d} {rel}:{first}: {name}")
    long_ones = [x for x in found if x[0] > limit]
    for n, rel, first, name in long_ones:
        print(f"{rel}:{first}: {name}: {n} lines (limit {limit}; split it into named steps)")
    if long_ones:
        return 1
    print(f"functions within {limit} lines: {len(found)} functions in {files} files of core/")
    return 0


if __name__ == "__main__":
    sys.exit(main())

// How values appear in messages: numbers with six significant digits (a time
// of 9.6e-133 s is not "0.000000"), and text from a file clipped to a
// readable length (an id may be a megabyte long).
#pragma once

#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>

namespace pm {

constexpr size_t kMessageClip = 60;

// "%.6g": 0.25, 1e-300, 4.29497e+09.
inline std::string numberText(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// The first `max` bytes of `s` (not cutting a UTF-8 sequence) and "…" when
// anything was left off.
inline std::string clipText(std::string_view s, size_t max = kMessageClip) {
  if (s.size() <= max) return std::string(s);
  size_t n = max;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;  // s[n] continues a sequence
  return std::string(s.substr(0, n)) + "\u2026";
}

// `message` with every quoted stretch ('...' or "...") and every unbroken
// run of text longer than the clip length clipped: messages quote ids,
// types and references from the file.
inline std::string clipQuoted(std::string_view message, size_t max = kMessageClip) {
  std::string out;
  out.reserve(std::min(message.size(), size_t(4096)));
  size_t i = 0;
  while (i < message.size()) {
    const char c = message[i];
    if (c == '\'' || c == '"') {
      const size_t end = message.find(c, i + 1);
      if (end != std::string_view::npos) {
        out += c;
        out += clipText(message.substr(i + 1, end - i - 1), max);
        out += c;
        i = end + 1;
        continue;
      }
    }
    // An unquoted run without spaces (a value echoed bare) is clipped too,
    // at a more generous length: paths are such runs.
    size_t end = i;
    while (end < message.size() && message[end] != ' ' && message[end] != '\n' && message[end] != '\'' &&
           message[end] != '"')
      ++end;
    if (end == i) {
      out += c;
      ++i;
      continue;
    }
    out += clipText(message.substr(i, end - i), 4 * max);
    i = end;
  }
  return out;
}

}  // namespace pm

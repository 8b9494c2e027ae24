#include "io/json_limits.h"

#include "model/message_text.h"
#include "model/project_error.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <vector>

namespace pm {

namespace {

// One open array or object of the scan: where its current value sits.
struct Frame {
  bool array = false;
  size_t index = 0;                     // arrays: the current element
  size_t keyBegin = 0, keyLength = 0;   // objects: the current key, inside the text
  bool expectKey = true;                // objects: the next string is a key
};

constexpr size_t kPathSegments = 5;  // the rest of a deep path says nothing more

std::string pathOf(const std::string& text, const std::vector<Frame>& stack) {
  std::string path;
  size_t n = 0;
  for (const Frame& f : stack) {
    if (n++ == kPathSegments) return path + "\u2026";
    if (f.array) {
      path += "[" + std::to_string(f.index) + "]";
    } else if (!f.expectKey) {
      if (!path.empty()) path += ".";
      path += clipText(std::string_view(text).substr(f.keyBegin, f.keyLength), 40);
    }
  }
  return path;
}

bool numberChar(char c) { return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'; }

}  // namespace

std::string jsonPosition(const std::string& text, size_t offset) {
  size_t line = 1, column = 1;
  for (size_t k = 0; k < offset && k < text.size(); ++k) {
    if (text[k] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

std::string jsonExcerpt(const std::string& text, size_t offset) {
  offset = std::min(offset, text.size());
  constexpr size_t kBefore = 30, kAfter = 20;
  size_t begin = offset > kBefore ? offset - kBefore : 0, end = std::min(text.size(), offset + kAfter);
  // Within the line, and not starting inside a UTF-8 sequence.
  for (size_t k = offset; k > begin; --k)
    if (text[k - 1] == '\n') {
      begin = k;
      break;
    }
  for (size_t k = offset; k < end; ++k)
    if (text[k] == '\n' || text[k] == '\r') {
      end = k;
      break;
    }
  while (begin < offset && (static_cast<unsigned char>(text[begin]) & 0xC0) == 0x80) ++begin;
  while (end > offset && end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  std::string s = (begin > 0 && text[begin - 1] != '\n' ? "\u2026" : "") + text.substr(begin, end - begin);
  if (end < text.size() && text[end] != '\n' && text[end] != '\r') s += "\u2026";
  for (char& c : s)
    if (c == '\t') c = ' ';
  return s;
}

void checkJsonLimits(const std::string& text, const std::string& file, int maxDepth) {
  std::vector<Frame> stack;
  auto fail = [&](size_t at, const std::string& message) {
    throw ProjectError(file, "", pathOf(text, stack), message + " (" + jsonPosition(text, at) + ")");
  };
  const size_t n = text.size();
  for (size_t i = 0; i < n; ++i) {
    const char c = text[i];
    switch (c) {
      case '"': {
        size_t k = i + 1;
        while (k < n && text[k] != '"') k += text[k] == '\\' ? 2 : 1;
        if (k >= n) return;  // unterminated: the parser says where
        if (!stack.empty() && !stack.back().array && stack.back().expectKey) {
          stack.back().keyBegin = i + 1;
          stack.back().keyLength = k - i - 1;
        }
        i = k;
        break;
      }
      case '{':
      case '[':
        if (static_cast<int>(stack.size()) >= maxDepth)
          fail(i, "nested more than " + std::to_string(maxDepth) + " levels deep");
        stack.push_back(Frame{c == '[', 0, 0, 0, true});
        break;
      case '}':
      case ']':
        if (stack.empty()) return;  // malformed: the parser says where
        stack.pop_back();
        break;
      case ',':
        if (!stack.empty()) {
          if (stack.back().array) ++stack.back().index;
          else stack.back().expectKey = true;
        }
        break;
      case ':':
        if (!stack.empty() && !stack.back().array) stack.back().expectKey = false;
        break;
      default:
        if (c == '-' || (c >= '0' && c <= '9')) {
          size_t k = i;
          bool exponent = false;
          while (k < n && numberChar(text[k])) exponent |= text[k] == 'e' || text[k] == 'E', ++k;
          // Only an exponent or over 308 digits can leave a double's range.
          if (exponent || k - i > 308) {
            const std::string token = text.substr(i, k - i);
            errno = 0;
            const double v = std::strtod(token.c_str(), nullptr);
            if (std::isinf(v) || (errno == ERANGE && std::abs(v) > 1.0))
              fail(i, "the number " + clipText(token, 30) + " is too large for a double (limit about 1.8e308)");
          }
          i = k - 1;
        }
        break;
    }
  }
}

}  // namespace pm

#include "io/mesh_file.h"

#include "io/confined_file.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <stdexcept>

namespace pm {

namespace {

[[noreturn]] void fail(const std::string& name, const std::string& what) {
  throw std::runtime_error(name + ": " + what);
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

// A binary STL is an 80-byte header, a uint32 count and 50 bytes per
// facet; its size says so exactly. (Some binary files start "solid" too.)
bool isBinaryStl(const std::string& t) {
  if (t.size() < 84) return false;
  std::uint32_t n = 0;
  std::memcpy(&n, t.data() + 80, 4);
  return t.size() == 84 + 50 * std::size_t(n);
}

TriangleMesh binaryStl(const std::string& t) {
  std::uint32_t n = 0;
  std::memcpy(&n, t.data() + 80, 4);
  TriangleMesh m;
  m.vertices.reserve(3 * std::size_t(n));
  for (std::uint32_t f = 0; f < n; ++f) {
    const char* p = t.data() + 84 + 50 * std::size_t(f) + 12;  // after the normal
    for (std::uint32_t k = 0; k < 3; ++k) {
      float v[3];
      std::memcpy(v, p + 12 * k, 12);
      m.vertices.push_back({v[0], v[1], v[2]});
    }
    m.triangles.push_back({3 * f, 3 * f + 1, 3 * f + 2});
  }
  return m;
}

TriangleMesh asciiStl(const std::string& t, const std::string& name) {
  std::istringstream in(t);
  std::string line;
  TriangleMesh m;
  int lineNo = 0, corners = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    std::istringstream ls(line);
    std::string word;
    if (!(ls >> word)) continue;
    word = lower(word);
    if (word == "vertex") {
      Vec3 v;
      if (!(ls >> v[0] >> v[1] >> v[2])) fail(name, "line " + std::to_string(lineNo) + ": expected 'vertex x y z'");
      m.vertices.push_back(v);
      ++corners;
    } else if (word == "endloop") {
      if (corners != 3) fail(name, "line " + std::to_string(lineNo) + ": a facet needs 3 vertices, this one has " + std::to_string(corners));
      const auto n = std::uint32_t(m.vertices.size());
      m.triangles.push_back({n - 3, n - 2, n - 1});
      corners = 0;
    } else if (word == "outer" || word == "facet" || word == "endfacet" || word == "solid" || word == "endsolid") {
      if (word == "facet") corners = 0;
    } else {
      fail(name, "line " + std::to_string(lineNo) + ": unexpected '" + word + "' (not an STL file?)");
    }
  }
  if (m.triangles.empty()) fail(name, "no facets found (an ASCII STL lists 'facet ... outer loop / vertex x y z ...')");
  return m;
}

// "7", "7/1", "7//3", "7/1/3"; negative counts back from the last vertex.
std::uint32_t objIndex(const std::string& token, std::size_t count, const std::string& name, int lineNo) {
  long k = 0;
  try {
    k = std::stol(token.substr(0, token.find('/')));
  } catch (const std::exception&) {
    fail(name, "line " + std::to_string(lineNo) + ": bad face corner '" + token + "'");
  }
  const long index = k < 0 ? long(count) + k : k - 1;
  if (k == 0 || index < 0 || index >= long(count))
    fail(name, "line " + std::to_string(lineNo) + ": face corner " + token + " names no vertex (" + std::to_string(count) +
                   " read so far)");
  return std::uint32_t(index);
}

TriangleMesh obj(const std::string& t, const std::string& name) {
  std::istringstream in(t);
  std::string line;
  TriangleMesh m;
  int lineNo = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    std::istringstream ls(line);
    std::string word;
    if (!(ls >> word) || word[0] == '#') continue;
    if (word == "v") {
      Vec3 v;
      if (!(ls >> v[0] >> v[1] >> v[2])) fail(name, "line " + std::to_string(lineNo) + ": expected 'v x y z'");
      m.vertices.push_back(v);
    } else if (word == "f") {
      std::vector<std::uint32_t> corner;
      for (std::string tok; ls >> tok;) corner.push_back(objIndex(tok, m.vertices.size(), name, lineNo));
      if (corner.size() < 3) fail(name, "line " + std::to_string(lineNo) + ": a face needs at least 3 corners");
      for (size_t k = 1; k + 1 < corner.size(); ++k) m.triangles.push_back({corner[0], corner[k], corner[k + 1]});
    }
  }
  if (m.triangles.empty()) fail(name, "no faces found (an OBJ lists 'v x y z' and 'f a b c')");
  return m;
}

}  // namespace

TriangleMesh parseMeshText(const std::string& text, const std::string& name) {
  const std::string ext = lower(std::filesystem::path(name).extension().string());
  TriangleMesh m;
  if (ext == ".stl") m = isBinaryStl(text) ? binaryStl(text) : asciiStl(text, name);
  else if (ext == ".obj") m = obj(text, name);
  else fail(name, "unknown mesh format '" + ext + "' (STL or OBJ)");
  return weldVertices(m);
}

TriangleMesh readMeshFile(const std::string& folder, const std::string& ref) {
  std::string text;
  try {
    text = readConfinedFile(folder, ref, kMeshFileMaxBytes);
  } catch (const std::exception& e) {
    fail(ref, e.what());
  }
  return parseMeshText(text, ref);
}

std::function<TriangleMesh(const std::string&)> meshReaderFor(const std::string& projectFile) {
  const std::string folder = std::filesystem::path(projectFile).parent_path().string();
  return [folder](const std::string& ref) { return readMeshFile(folder, ref); };
}

}  // namespace pm

#include "json_locator.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <unordered_map>

namespace gameplan::io::detail {

JsonPath operator/(JsonPath path, std::string key) {
    path.push_back(JsonPathElem{false, 0, std::move(key)});
    return path;
}

JsonPath operator/(JsonPath path, std::size_t index) {
    path.push_back(JsonPathElem{true, index, {}});
    return path;
}

namespace {

bool simple_key(const std::string& key) {
    if (key.empty()) return false;
    for (const char c : key) {
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x80) continue;  // non-ASCII UTF-8 (Chinese atom names) reads fine unquoted
        if (!(std::isalnum(u) || c == '_' || c == '-')) return false;
    }
    return true;
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

void append_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

// Where a scan ended: the first byte not understood (or the visitor's stop, or `stop`), and the start
// of a string or literal that `stop` cut off (npos if none).
struct ScanEnd {
    std::size_t offset = 0;
    std::size_t cut_token = std::string_view::npos;
};

// Iterative tolerant scanner. The visitor gets value_begin(offset), value_end(offset) and
// key(offset, duplicate) with the scanner's stack describing the current path; any of them may return
// false to stop.
class Scanner {
public:
    explicit Scanner(std::string_view text) : m_text(text) {}

    struct Frame {
        bool object;
        std::size_t index;
        std::string key;
        std::set<std::string> keys;
        bool has_key = false;  // objects: the current member's key has been read
    };

    [[nodiscard]] const std::vector<Frame>& stack() const noexcept { return m_stack; }

    [[nodiscard]] JsonPath current_path() const {
        JsonPath p;
        for (const Frame& f : m_stack) {
            if (f.object && !f.has_key) break;  // between members: the path is the object itself
            p.push_back(f.object ? JsonPathElem{false, 0, f.key} : JsonPathElem{true, f.index, {}});
        }
        return p;
    }

    [[nodiscard]] bool at(const JsonPath& path) const {
        if (path.size() != m_stack.size()) return false;
        for (std::size_t i = 0; i < path.size(); ++i) {
            const Frame& f = m_stack[i];
            if (f.object == path[i].is_index || (f.object && !f.has_key)) return false;
            if (f.object ? f.key != path[i].key : f.index != path[i].index) return false;
        }
        return true;
    }

    template <class Visitor>
    ScanEnd scan(Visitor& v, std::size_t stop = std::string_view::npos) {
        enum class Expect { Value, Key, AfterValue, KeyOrEnd, ValueOrEnd };
        std::size_t pos = m_text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
        stop = std::min(stop, m_text.size());
        Expect expect = Expect::Value;
        std::size_t cut = std::string_view::npos;  // a literal that runs into `stop`
        m_stack.clear();
        for (;;) {
            while (pos < stop && std::isspace(static_cast<unsigned char>(m_text[pos]))) ++pos;
            if (pos >= stop) return {stop, cut};
            const char c = m_text[pos];
            if (expect == Expect::KeyOrEnd) {
                if (c == '}') {
                    ++pos;
                    m_stack.pop_back();
                    if (!v.value_end(pos)) return {pos, std::string_view::npos};
                    expect = Expect::AfterValue;
                    continue;
                }
                expect = Expect::Key;
            }
            if (expect == Expect::ValueOrEnd) {
                if (c == ']') {
                    ++pos;
                    m_stack.pop_back();
                    if (!v.value_end(pos)) return {pos, std::string_view::npos};
                    expect = Expect::AfterValue;
                    continue;
                }
                expect = Expect::Value;
            }
            if (expect == Expect::Key) {
                if (c != '"' || m_stack.empty()) return {pos, std::string_view::npos};
                const std::size_t key_offset = pos;
                std::string key;
                if (!read_string(pos, stop, &key)) return {key_offset, key_offset};
                Frame& f = m_stack.back();
                const bool duplicate = !f.keys.insert(key).second;
                f.key = std::move(key);
                f.has_key = true;
                if (!v.key(key_offset, duplicate)) return {pos, std::string_view::npos};
                while (pos < stop && std::isspace(static_cast<unsigned char>(m_text[pos]))) ++pos;
                if (pos >= stop || m_text[pos] != ':') return {pos, std::string_view::npos};
                ++pos;
                expect = Expect::Value;
                continue;
            }
            if (expect == Expect::Value) {
                if (!v.value_begin(pos)) return {pos, std::string_view::npos};
                if (c == '{' || c == '[') {
                    if (m_stack.size() >= kMaxDepth) return {pos, std::string_view::npos};
                    m_stack.push_back(Frame{c == '{', 0, {}, {}, false});
                    ++pos;
                    expect = c == '{' ? Expect::KeyOrEnd : Expect::ValueOrEnd;
                    continue;
                }
                const std::size_t begin = pos;
                if (c == '"') {
                    if (!read_string(pos, stop, nullptr)) return {begin, begin};
                } else {
                    while (pos < stop && (std::isalnum(static_cast<unsigned char>(m_text[pos])) || m_text[pos] == '+' ||
                                          m_text[pos] == '-' || m_text[pos] == '.'))
                        ++pos;
                    if (pos == begin) return {pos, std::string_view::npos};
                    if (pos >= stop) cut = begin;
                }
                if (!v.value_end(pos)) return {pos, std::string_view::npos};
                expect = Expect::AfterValue;
                continue;
            }
            // AfterValue
            if (m_stack.empty()) return {pos, std::string_view::npos};
            Frame& f = m_stack.back();
            if (c == ',') {
                ++pos;
                if (f.object) {
                    f.has_key = false;
                    expect = Expect::Key;
                } else {
                    ++f.index;
                    expect = Expect::Value;
                }
            } else if (c == (f.object ? '}' : ']')) {
                ++pos;
                m_stack.pop_back();
                if (!v.value_end(pos)) return {pos, std::string_view::npos};
                expect = Expect::AfterValue;
            } else {
                return {pos, std::string_view::npos};
            }
        }
    }

private:
    static constexpr std::size_t kMaxDepth = 10000;

    bool read_hex4(std::size_t& pos, std::size_t stop, std::uint32_t& out) const {
        if (pos + 4 > stop) return false;
        out = 0;
        for (std::size_t k = 0; k < 4; ++k) {
            const int v = hex_value(m_text[pos + k]);
            if (v < 0) return false;
            out = out * 16 + static_cast<std::uint32_t>(v);
        }
        pos += 4;
        return true;
    }

    // Reads a string starting at its opening quote; decodes it into `out` when given.
    bool read_string(std::size_t& pos, std::size_t stop, std::string* out) const {
        ++pos;
        while (pos < stop) {
            const char c = m_text[pos++];
            if (c == '"') return true;
            if (c != '\\') {
                if (out) *out += c;
                continue;
            }
            if (pos >= stop) return false;
            const char e = m_text[pos++];
            switch (e) {
                case '"': if (out) *out += '"'; break;
                case '\\': if (out) *out += '\\'; break;
                case '/': if (out) *out += '/'; break;
                case 'b': if (out) *out += '\b'; break;
                case 'f': if (out) *out += '\f'; break;
                case 'n': if (out) *out += '\n'; break;
                case 'r': if (out) *out += '\r'; break;
                case 't': if (out) *out += '\t'; break;
                case 'u': {
                    std::uint32_t cp = 0;
                    if (!read_hex4(pos, stop, cp)) return false;
                    if (cp >= 0xD800 && cp <= 0xDBFF && pos + 6 <= stop && m_text[pos] == '\\' && m_text[pos + 1] == 'u') {
                        std::size_t p2 = pos + 2;
                        std::uint32_t lo = 0;
                        if (read_hex4(p2, stop, lo) && lo >= 0xDC00 && lo <= 0xDFFF) {
                            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                            pos = p2;
                        }
                    }
                    if (out) append_utf8(*out, cp);
                    break;
                }
                default: return false;
            }
        }
        return false;
    }

    std::string_view m_text;
    std::vector<Frame> m_stack;
};

// Moves `p` from byte `from` to byte `to` of the text (lines, and columns counting UTF-8 lead bytes).
void advance(std::string_view text, std::size_t from, std::size_t to, TextPosition& p) {
    for (std::size_t i = from; i < to; ++i) {
        const auto u = static_cast<unsigned char>(text[i]);
        if (text[i] == '\n') {
            ++p.line;
            p.column = 1;
        } else if ((u & 0xC0) != 0x80) {
            ++p.column;
        }
    }
}

// The child of a trie node by key or by index (npos: none).
template <class Map, class Key>
std::size_t trie_child(const Map& children, const Key& k) {
    const auto it = children.find(k);
    return it == children.end() ? std::string_view::npos : it->second;
}

}  // namespace

std::string printable(std::string_view s, std::size_t max_chars) {
    static const char* hex = "0123456789abcdef";
    std::string out;
    std::size_t chars = 0;
    std::size_t i = 0;
    const auto escape = [&](unsigned char u) {
        out += "\\x";
        out += hex[u >> 4];
        out += hex[u & 15];
    };
    while (i < s.size()) {
        if (chars == max_chars) {
            out += "...";
            break;
        }
        ++chars;
        const auto u = static_cast<unsigned char>(s[i]);
        if (u < 0x80) {
            if (u < 0x20 || u == 0x7f || u == '"' || u == '\\') escape(u);
            else out += static_cast<char>(u);
            ++i;
            continue;
        }
        // A well-formed UTF-8 sequence is kept, except C1 control characters (U+0080..U+009F, which
        // terminals obey like ESC); anything else is escaped byte by byte.
        const std::size_t len = (u & 0xE0) == 0xC0 ? 2 : (u & 0xF0) == 0xE0 ? 3 : (u & 0xF8) == 0xF0 ? 4 : 0;
        const std::string_view seq = len ? s.substr(i, len) : std::string_view{};
        if (len && seq.size() == len && invalid_utf8_offset(seq) == std::string_view::npos &&
            !(u == 0xC2 && static_cast<unsigned char>(s[i + 1]) < 0xA0)) {
            out += seq;
            i += len;
        } else {
            escape(u);
            ++i;
        }
    }
    return out;
}

std::string format_json_path(const JsonPath& path) {
    std::vector<std::string> parts;
    parts.reserve(path.size());
    for (const JsonPathElem& e : path) {
        if (e.is_index) parts.push_back('[' + std::to_string(e.index) + ']');
        else if (simple_key(e.key) && e.key.size() <= kMaxQuotedChars && printable(e.key) == e.key) parts.push_back('.' + e.key);
        else parts.push_back("[\"" + printable(e.key) + "\"]");
    }
    // A deep path keeps its first and last steps: "a.b[0][0]...[0][0].c".
    constexpr std::size_t kKeep = 120;
    std::size_t total = 0;
    for (const std::string& p : parts) total += p.size();
    std::string out;
    if (total <= 2 * kKeep + 3) {
        for (const std::string& p : parts) out += p;
    } else {
        std::size_t head = 0, used = 0;
        while (head < parts.size() && used + parts[head].size() <= kKeep) used += parts[head++].size();
        std::size_t tail = parts.size(), tail_used = 0;
        while (tail > head && tail_used + parts[tail - 1].size() <= kKeep) tail_used += parts[--tail].size();
        for (std::size_t i = 0; i < head; ++i) out += parts[i];
        out += "...";
        for (std::size_t i = tail; i < parts.size(); ++i) out += i == tail && parts[i][0] == '.' ? parts[i].substr(1) : parts[i];
    }
    if (!out.empty() && out[0] == '.') out.erase(0, 1);
    return out;
}

TextPosition position_of(std::string_view text, std::size_t offset) {
    TextPosition p;
    advance(text, 0, std::min(offset, text.size()), p);
    return p;
}

std::size_t invalid_utf8_offset(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        std::size_t len = 0;
        std::uint32_t cp = 0;
        if (c < 0x80) {
            ++i;
            continue;
        }
        if ((c & 0xE0) == 0xC0) {
            len = 2;
            cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            len = 3;
            cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            len = 4;
            cp = c & 0x07;
        } else {
            return i;
        }
        if (i + len > s.size()) return i;
        for (std::size_t k = 1; k < len; ++k) {
            const auto cc = static_cast<unsigned char>(s[i + k]);
            if ((cc & 0xC0) != 0x80) return i;
            cp = (cp << 6) | (cc & 0x3F);
        }
        const bool overlong = (len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
        if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
        i += len;
    }
    return std::string_view::npos;
}

JsonLocation locate(std::string_view text, const JsonPath& path) {
    struct Visitor {
        Scanner& scanner;
        const JsonPath& path;
        JsonLocation loc;
        bool key(std::size_t offset, bool) {
            if (!loc.found && scanner.at(path)) loc.key = offset;
            return true;
        }
        bool value_begin(std::size_t offset) {
            if (!loc.found && scanner.at(path)) {
                loc.found = true;
                loc.begin = offset;
            }
            return true;
        }
        bool value_end(std::size_t offset) {
            if (loc.found && scanner.at(path)) {
                loc.end = offset;
                return false;
            }
            return true;
        }
    };
    Scanner scanner(text);
    Visitor v{scanner, path, {}};
    scanner.scan(v);
    if (!v.loc.found) v.loc.key = std::string_view::npos;
    return v.loc;
}

std::vector<std::size_t> locate_all(std::string_view text, const std::vector<JsonPath>& paths) {
    // A trie of the paths asked for; the scan keeps, per frame of its stack, the trie node of the path
    // through that frame's current member or element (null off the trie), so each key is hashed once.
    struct Node {
        std::unordered_map<std::string, std::size_t> keys;       // child node index by member key
        std::unordered_map<std::size_t, std::size_t> elements;   // child node index by array index
        std::size_t offset = std::string_view::npos;
    };
    static constexpr std::size_t kNone = std::string_view::npos;
    std::vector<Node> nodes(1);
    for (std::size_t i = 0; i < paths.size(); ++i) {
        std::size_t at = 0;
        for (const JsonPathElem& e : paths[i]) {
            const std::size_t next = nodes.size();
            const std::size_t child = e.is_index ? nodes[at].elements.try_emplace(e.index, next).first->second
                                                 : nodes[at].keys.try_emplace(e.key, next).first->second;
            if (child == next) nodes.emplace_back();
            at = child;
        }
    }
    struct Visitor {
        Scanner& scanner;
        std::vector<Node>& nodes;
        std::vector<std::size_t> memo;  // per stack frame: trie node of its current member or element
        void reach(std::size_t node, std::size_t offset) {
            if (node != kNone && nodes[node].offset == kNone) nodes[node].offset = offset;
        }
        std::size_t parent(std::size_t depth) const { return depth == 0 ? 0 : memo[depth - 1]; }

        bool key(std::size_t offset, bool) {
            const auto& stack = scanner.stack();
            const std::size_t d = stack.size() - 1;
            memo.resize(stack.size(), kNone);
            memo[d] = parent(d) == kNone ? kNone : trie_child(nodes[parent(d)].keys, stack[d].key);
            reach(memo[d], offset);
            return true;
        }
        bool value_begin(std::size_t offset) {
            const auto& stack = scanner.stack();
            if (stack.empty()) {
                reach(0, offset);
                return true;
            }
            const std::size_t d = stack.size() - 1;
            memo.resize(stack.size(), kNone);
            if (!stack[d].object) memo[d] = parent(d) == kNone ? kNone : trie_child(nodes[parent(d)].elements, stack[d].index);
            reach(memo[d], offset);
            return true;
        }
        bool value_end(std::size_t) { return true; }
    };
    Scanner scanner(text);
    Visitor v{scanner, nodes, {}};
    scanner.scan(v);
    // The deepest prefix found: walk each path again from the root.
    std::vector<std::size_t> out(paths.size(), kNone);
    for (std::size_t i = 0; i < paths.size(); ++i) {
        std::size_t at = 0, best = nodes[0].offset;
        for (const JsonPathElem& e : paths[i]) {
            at = e.is_index ? nodes[at].elements.at(e.index) : nodes[at].keys.at(e.key);
            if (nodes[at].offset == kNone) break;
            best = nodes[at].offset;
        }
        out[i] = best;
    }
    return out;
}

std::vector<TextPosition> positions_of(std::string_view text, const std::vector<std::size_t>& offsets) {
    std::vector<std::size_t> order(offsets.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return offsets[a] < offsets[b]; });
    std::vector<TextPosition> out(offsets.size(), TextPosition{0, 0});
    TextPosition p;
    std::size_t i = 0;
    for (const std::size_t k : order) {
        if (offsets[k] == std::string_view::npos) continue;
        const std::size_t target = std::min(offsets[k], text.size());
        advance(text, i, target, p);
        i = std::max(i, target);
        out[k] = p;
    }
    return out;
}

JsonPath path_at(std::string_view text, std::size_t offset) { return scan_until(text, offset).path; }

DuplicateKey find_duplicate_key(std::string_view text) {
    struct Visitor {
        Scanner& scanner;
        DuplicateKey dup;
        bool key(std::size_t offset, bool duplicate) {
            if (!duplicate) return true;
            dup.found = true;
            dup.path = scanner.current_path();
            dup.offset = offset;
            return false;
        }
        bool value_begin(std::size_t) { return true; }
        bool value_end(std::size_t) { return true; }
    };
    Scanner scanner(text);
    Visitor v{scanner, {}};
    scanner.scan(v);
    return v.dup;
}

ScanStop scan_until(std::string_view text, std::size_t stop) {
    struct Visitor {
        bool key(std::size_t, bool) { return true; }
        bool value_begin(std::size_t) { return true; }
        bool value_end(std::size_t) { return true; }
    };
    Scanner scanner(text);
    Visitor v;
    const ScanEnd end = scanner.scan(v, stop);
    return ScanStop{scanner.current_path(), end.offset, end.cut_token};
}

std::size_t number_start(std::string_view text, std::size_t end) {
    const auto number_char = [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
    };
    std::size_t p = std::min(end, text.size());
    if (p > 0 && !number_char(text[p - 1])) --p;
    while (p > 0 && number_char(text[p - 1])) --p;
    return p;
}

std::size_t overflowing_number(std::string_view text, std::size_t parser_end) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '"') {
            for (++i; i < text.size() && text[i] != '"'; ++i)
                if (text[i] == '\\') ++i;
            continue;
        }
        if (c != '-' && !std::isdigit(static_cast<unsigned char>(c))) continue;
        std::size_t j = i;
        while (j < text.size() && (std::isdigit(static_cast<unsigned char>(text[j])) || text[j] == '-' || text[j] == '+' ||
                                   text[j] == '.' || text[j] == 'e' || text[j] == 'E'))
            ++j;
        const std::string token(text.substr(i, j - i));
        if (std::isinf(std::strtod(token.c_str(), nullptr))) return i;
        i = j - 1;
    }
    return parser_end == std::string_view::npos ? parser_end : number_start(text, parser_end);
}

std::size_t field_error_offset(std::string_view text, const JsonPath& path) {
    JsonPath probe = path;
    for (;;) {
        const JsonLocation loc = locate(text, probe);
        if (loc.found) return loc.key != std::string_view::npos ? loc.key : loc.begin;
        if (probe.empty()) return 0;
        probe.pop_back();
    }
}

}  // namespace gameplan::io::detail

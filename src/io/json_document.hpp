#pragma once
// Private helper of the JSON loaders: builds nlohmann::ordered_json documents safely.
//
// nlohmann's own DOM builder inserts every object member by a linear search over the members read so
// far (ordered_json keeps file order), which is quadratic in the number of keys. This SAX handler
// appends members instead (duplicate keys are rejected by the loaders' key scanner before any value is
// read, so a search is never needed) and refuses nesting deeper than a limit, so no later recursive
// walk (copy, comparison, destruction) can exhaust the stack. Parse errors are thrown exactly as
// Json::parse throws them.

#include "json_locator.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace gameplan::io::detail {

using OrderedJson = nlohmann::ordered_json;

/// Thrown by parse_ordered_json when the document nests deeper than its limit.
struct JsonTooDeep {};

/// Thrown by parse_ordered_json for a number beyond double range ("1e400"); `end` is the byte offset
/// where nlohmann stopped (just past the number, or one byte further).
struct JsonNumberOverflow {
    std::size_t end = 0;
};

/// Offset of the first '{' or '[' that opens level `max_depth + 1` (the document is level 1), or npos.
/// Tolerant: strings are skipped, anything else is ignored; linear time, no allocation.
inline std::size_t nesting_violation(std::string_view text, std::size_t max_depth) {
    std::size_t depth = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '"') {
            for (++i; i < text.size() && text[i] != '"'; ++i)
                if (text[i] == '\\') ++i;
        } else if (c == '{' || c == '[') {
            if (++depth > max_depth) return i;
        } else if ((c == '}' || c == ']') && depth > 0) {
            --depth;
        }
    }
    return std::string_view::npos;
}

class OrderedJsonBuilder {
public:
    using number_integer_t = OrderedJson::number_integer_t;
    using number_unsigned_t = OrderedJson::number_unsigned_t;
    using number_float_t = OrderedJson::number_float_t;
    using string_t = OrderedJson::string_t;
    using binary_t = OrderedJson::binary_t;

    OrderedJsonBuilder(OrderedJson& root, std::size_t max_depth) : m_root(root), m_max_depth(max_depth) {}

    bool null() { return value(nullptr); }
    bool boolean(bool v) { return value(v); }
    bool number_integer(number_integer_t v) { return value(v); }
    bool number_unsigned(number_unsigned_t v) { return value(v); }
    bool number_float(number_float_t v, const string_t&) { return value(v); }
    bool string(string_t& v) { return value(std::move(v)); }
    bool binary(binary_t& v) { return value(OrderedJson::binary(std::move(v))); }
    bool start_object(std::size_t) { return open(OrderedJson::object()); }
    bool start_array(std::size_t) { return open(OrderedJson::array()); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }
    bool key(string_t& k) {
        // Members are appended in file order; ordered_map is a std::vector of pairs underneath.
        auto& members = m_stack.back()->get_ref<OrderedJson::object_t&>();
        members.emplace_back(std::move(k), nullptr);
        m_member = &members.back().second;
        return true;
    }
    template <class Exception>
    bool parse_error(std::size_t position, const std::string&, const Exception& e) {
        if constexpr (std::is_same_v<Exception, nlohmann::json::out_of_range>)
            if (e.id == 406) throw JsonNumberOverflow{position};
        throw e;
    }

private:
    template <class V>
    OrderedJson* place(V&& v) {
        if (m_stack.empty()) {
            m_root = OrderedJson(std::forward<V>(v));
            return &m_root;
        }
        OrderedJson& top = *m_stack.back();
        if (top.is_array()) {
            auto& elements = top.get_ref<OrderedJson::array_t&>();
            elements.emplace_back(std::forward<V>(v));
            return &elements.back();
        }
        *m_member = OrderedJson(std::forward<V>(v));
        return m_member;
    }
    template <class V>
    bool value(V&& v) {
        (void)place(std::forward<V>(v));
        return true;
    }
    bool open(OrderedJson&& container) {
        if (m_stack.size() >= m_max_depth) throw JsonTooDeep{};
        m_stack.push_back(place(std::move(container)));
        return true;
    }
    bool close() {
        m_stack.pop_back();
        return true;
    }

    OrderedJson& m_root;
    std::size_t m_max_depth;
    std::vector<OrderedJson*> m_stack;
    OrderedJson* m_member = nullptr;
};

/// The first member of `object` whose key is neither in `known` nor starts with '_' (ignored keys), or
/// nullopt. Shared by the loaders' "unknown field" checks.
template <class J>
std::optional<std::string> first_unknown_key(const J& object, std::initializer_list<std::string_view> known) {
    for (const auto& [key, value] : object.items()) {
        if (!key.empty() && key[0] == '_') continue;
        bool ok = false;
        for (const std::string_view k : known) ok |= key == k;
        if (!ok) return std::string(key);
    }
    return std::nullopt;
}

/// The message of an unknown field: "unknown field (expected one of: a, b; keys starting with '_' are ignored)".
inline std::string unknown_field_message(std::initializer_list<std::string_view> known) {
    std::string list;
    for (const std::string_view k : known) list += (list.empty() ? "" : ", ") + std::string(k);
    return "unknown field (expected one of: " + list + "; keys starting with '_' are ignored)";
}

/// Parses `text` (one JSON document) in linear time. Throws nlohmann's parse_error / out_of_range like
/// Json::parse, JsonNumberOverflow for a number beyond double range, and JsonTooDeep past `max_depth`
/// levels.
inline OrderedJson parse_ordered_json(std::string_view text, std::size_t max_depth) {
    OrderedJson root;
    OrderedJsonBuilder builder(root, max_depth);
    (void)OrderedJson::sax_parse(text.begin(), text.end(), &builder);
    return root;
}

/// Parses `text` (the contents of `file`) as one JSON document of at most `max_depth` levels, after the
/// checks every JSON loader makes, in this order: nesting ("nested deeper than N levels of objects and
/// arrays (the limit)", at the bracket that opens level N + 1), UTF-8 ("invalid UTF-8 (byte 0xNN)", at
/// the byte), syntax (at the first byte of the offending token; "truncated JSON: ..." at the end of a
/// text that ends early), numbers beyond double range ("number out of range", at the number's first
/// character) and duplicate keys ("duplicate key", at the second one). Throws a LoadError naming the
/// file, line, column and the path being read there; linear time.
OrderedJson parse_checked_json(std::string_view text, const std::string& file, std::size_t max_depth);

}  // namespace gameplan::io::detail

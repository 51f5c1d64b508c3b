#include <gameplan/io/domain_csv.hpp>
#include <gameplan/io/domain_file.hpp>
#include <gameplan/io/load_error.hpp>

#include "domain_tables.hpp"
#include "domain_tolerant.hpp"
#include "json_locator.hpp"
#include "number_text.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <unordered_map>
#include <utility>

namespace gameplan::io {

namespace {

using detail::printable;

constexpr std::string_view kBlank = " \t\r\n";

std::string_view trim(std::string_view s) {
    const std::size_t b = s.find_first_not_of(kBlank);
    if (b == std::string_view::npos) return {};
    const std::size_t e = s.find_last_not_of(kBlank);
    return s.substr(b, e - b + 1);
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
}

// Shortest text that reads back to the same double.
std::string format_number(double v) {
    return detail::shortest_text(v);
}

std::optional<double> parse_number(std::string_view s) {
    s = trim(s);
    if (s.empty()) return std::nullopt;
    if (s.front() == '+') s.remove_prefix(1);
    double v = 0;
    const auto r = detail::parse_double(s.data(), s.data() + s.size(), v);
    if (r.ec != std::errc() || r.ptr != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
    return v;
}

}  // namespace

// ---- RFC 4180 ---------------------------------------------------------------------------------------

std::vector<CsvRecord> parse_csv(std::string_view text, std::string_view file_name, const CsvLimits& limits) {
    const std::string file(file_name);
    if (text.size() > limits.max_bytes)
        throw LoadError(file, 0, 0, "", "too large: " + std::to_string(text.size()) + " bytes (the limit is " +
                                            std::to_string(limits.max_bytes) + ")");
    std::vector<CsvRecord> records;
    std::size_t pos = 0;
    if (text.substr(0, 3) == "\xEF\xBB\xBF") pos = 3;
    const std::size_t n = text.size();
    std::size_t line = 1;
    std::size_t line_start = 0;
    const auto column_of = [&](std::size_t offset) {
        std::size_t col = 1;
        for (std::size_t i = std::max(line_start, text.substr(0, 3) == "\xEF\xBB\xBF" ? std::size_t{3} : 0); i < offset && i < n; ++i)
            if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++col;
        return col;
    };
    const auto fail = [&](std::size_t offset, const std::string& message) {
        throw LoadError(file, line, column_of(offset), "", message);
    };
    while (pos < n) {
        if (records.size() >= limits.max_records)
            fail(pos, "too many rows (the limit is " + std::to_string(limits.max_records) + ")");
        CsvRecord record;
        record.line = line;
        const std::size_t record_start = pos;
        const auto check_size = [&](std::size_t at) {
            if (at - record_start > limits.max_record_bytes)
                throw LoadError(file, record.line, 1, "",
                                "row too long (more than " + std::to_string(limits.max_record_bytes) + " bytes)");
        };
        for (;;) {
            if (record.cells.size() >= limits.max_cells)
                fail(pos, "too many cells in one row (the limit is " + std::to_string(limits.max_cells) + ")");
            std::string cell;
            record.offsets.push_back(pos);
            if (pos < n && text[pos] == '"') {
                const std::size_t open_line = line;
                const std::size_t open_column = column_of(pos);
                ++pos;
                for (;;) {
                    if (pos >= n)
                        throw LoadError(file, open_line, open_column, "",
                                        "unterminated quoted field (no closing '\"' before the end of the file)");
                    check_size(pos);
                    const char c = text[pos];
                    if (c == '"') {
                        if (pos + 1 < n && text[pos + 1] == '"') {
                            cell += '"';
                            pos += 2;
                            continue;
                        }
                        ++pos;
                        break;
                    }
                    if (c == '\n' || (c == '\r' && (pos + 1 >= n || text[pos + 1] != '\n'))) {
                        ++line;
                        line_start = pos + 1;
                    }
                    cell += c;
                    ++pos;
                }
                if (pos < n && text[pos] != ',' && text[pos] != '\r' && text[pos] != '\n')
                    fail(pos, "text after the closing quote of a quoted field (write a quote inside one as \"\")");
            } else {
                const std::size_t begin = pos;
                while (pos < n && text[pos] != ',' && text[pos] != '\r' && text[pos] != '\n') {
                    if (text[pos] == '"')
                        fail(pos, "a quote inside an unquoted field (put the whole field in quotes and double the quote)");
                    ++pos;
                }
                check_size(pos);
                cell.assign(text.substr(begin, pos - begin));
            }
            record.cells.push_back(std::move(cell));
            if (pos < n && text[pos] == ',') {
                ++pos;
                continue;
            }
            break;
        }
        if (pos < n && text[pos] == '\r') ++pos;
        if (pos < n && text[pos] == '\n') ++pos;
        ++line;
        line_start = pos;
        records.push_back(std::move(record));
    }
    return records;
}

std::string csv_field(std::string_view cell) {
    const bool needs = cell.find_first_of(",\"\r\n") != std::string_view::npos ||
                       (!cell.empty() && (cell.front() == ' ' || cell.front() == '\t' || cell.back() == ' ' || cell.back() == '\t'));
    if (!needs) return std::string(cell);
    std::string out = "\"";
    for (const char c : cell) {
        if (c == '"') out += '"';
        out += c;
    }
    out += '"';
    return out;
}

// ---- cell items -------------------------------------------------------------------------------------

std::string parse_csv_items(std::string_view cell, std::vector<CsvItem>& out, std::size_t* error_offset) {
    std::size_t pos = 0;
    // A message about the item, pointing at byte `at` of the cell.
    const auto error = [&](std::size_t at, std::string message) {
        if (error_offset) *error_offset = at;
        return message;
    };
    while (pos <= cell.size()) {
        std::size_t end = cell.find(';', pos);
        if (end == std::string_view::npos) end = cell.size();
        const std::string_view raw = cell.substr(pos, end - pos);
        const std::string_view item = trim(raw);
        const std::size_t at = item.empty() ? pos : pos + static_cast<std::size_t>(item.data() - raw.data());
        pos = end + 1;
        if (item.empty()) continue;
        const std::string shown = printable(item);
        // The first operator character; '!' counts only as part of "!=".
        std::size_t op_at = std::string_view::npos;
        for (std::size_t i = 0; i < item.size(); ++i) {
            const char c = item[i];
            if (c == '=' || c == '<' || c == '>' || (c == '!' && i + 1 < item.size() && item[i + 1] == '=')) {
                op_at = i;
                break;
            }
        }
        CsvItem parsed;
        parsed.text = std::string(item);
        parsed.offset = at;
        if (op_at == std::string_view::npos) {
            std::string_view name = item;
            if (name.front() == '!') {
                parsed.value = false;
                name = trim(name.substr(1));
                if (name.empty()) return error(at, "item '" + shown + "' has no atom name after '!'");
            }
            parsed.kind = CsvItemKind::Atom;
            parsed.name = std::string(name);
            parsed.name_offset = at + static_cast<std::size_t>(name.data() - item.data());
            out.push_back(std::move(parsed));
            continue;
        }
        std::size_t name_end = op_at;
        std::string op;
        const char c = item[op_at];
        const char next = op_at + 1 < item.size() ? item[op_at + 1] : '\0';
        if (c == '=' && next == '=') op = "==";
        else if (c == '!') op = "!=";
        else if ((c == '<' || c == '>') && next == '=') op = std::string(1, c) + "=";
        else if (c == '<' || c == '>') op = std::string(1, c);
        else if (op_at > 0 && (item[op_at - 1] == '+' || item[op_at - 1] == '-')) {
            op = std::string(1, item[op_at - 1]) + "=";
            name_end = op_at - 1;
        } else {
            op = "=";
        }
        const std::size_t operand_at = (op == "+=" || op == "-=") ? op_at + 1 : op_at + op.size();
        const std::string_view name = trim(item.substr(0, name_end));
        const std::string_view operand = trim(item.substr(operand_at));
        if (name.empty()) return error(at, "item '" + shown + "' has no variable name before '" + op + "'");
        if (!name.empty() && name.front() == '!')
            return error(at, "item '" + shown + "' puts '!' before a comparison (write 'var!=value')");
        if (operand.empty()) return error(at + name_end, "item '" + shown + "' has no value after '" + op + "'");
        const std::size_t operand_offset = at + static_cast<std::size_t>(operand.data() - item.data());
        if (const std::size_t second = operand.find_first_of("=<>"); second != std::string_view::npos)
            return error(operand_offset + second, "item '" + shown + "' has more than one operator (separate items with ';')");
        parsed.kind = (op == "=" || op == "+=" || op == "-=") ? CsvItemKind::Assignment : CsvItemKind::Comparison;
        parsed.name = std::string(name);
        parsed.name_offset = at + static_cast<std::size_t>(name.data() - item.data());
        parsed.op = op;
        parsed.operand = std::string(operand);
        parsed.operand_offset = operand_offset;
        parsed.op_offset = at + ((op == "+=" || op == "-=") ? op_at - 1 : op_at);
        out.push_back(std::move(parsed));
    }
    return {};
}

// ---- names ------------------------------------------------------------------------------------------

std::size_t edit_distance(std::string_view a, std::string_view b) {
    // Optimal string alignment distance with three rolling rows.
    std::vector<std::size_t> prev2(b.size() + 1), prev(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) cur[j] = std::min(cur[j], prev2[j - 2] + 1);
        }
        std::swap(prev2, prev);
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

std::string closest_name(std::string_view name, const std::vector<std::string>& candidates) {
    const std::string folded = lower(name);
    std::size_t best = std::string_view::npos;
    std::size_t best_distance = 0;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        const std::string& c = candidates[i];
        if (c == name) continue;
        if (std::max(c.size(), name.size()) - std::min(c.size(), name.size()) > 2) continue;
        std::size_t d = edit_distance(name, c);
        if (lower(c) == folded) d = 0;  // differs only in case: the best suggestion there is
        const bool close = d == 0 || (d <= 2 && 2 * d <= name.size());
        if (close && (best == std::string_view::npos || d < best_distance)) {
            best = i;
            best_distance = d;
        }
    }
    return best == std::string_view::npos ? std::string() : candidates[best];
}

// ---- the domain reader ------------------------------------------------------------------------------

namespace {

// The four required columns, then the optional ones (`when`: a named goal's condition; `retry`: the
// back-off of an action or a named goal).
enum Column : std::size_t { kName, kCost, kPre, kEff, kWhen, kRetry, kColumns };
constexpr std::size_t kRequired = 4;
constexpr std::string_view kColumnNames[kColumns] = {"name", "cost", "preconditions", "effects", "when", "retry"};

// An integer in 32 bits written as decimal digits with an optional sign.
std::optional<std::int32_t> parse_int32(std::string_view s) {
    s = trim(s);
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    std::int64_t v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size() || v < INT32_MIN || v > INT32_MAX) return std::nullopt;
    return static_cast<std::int32_t>(v);
}

class CsvLoader {
    struct Parts {
        std::vector<goap::Literal> literals;
        std::vector<goap::Comparison> comparisons;
        std::vector<goap::NumericEffect> effects;
        std::vector<std::size_t> effect_offsets;  // by effect: where its item is in the cell
    };
    struct Priority {
        double value = 0;
        std::string variable;
        double scale = 1, offset = 0;
    };

public:
    // With `tolerant`, errors of single rows are collected there and their rows skipped.
    CsvLoader(std::string_view text, std::string_view file, detail::TolerantDomain* tolerant = nullptr)
        : m_text(text), m_file(file), m_tolerant(tolerant) {}

    DomainFile load() {
        if (const std::size_t bad = detail::invalid_utf8_offset(m_text); bad != std::string_view::npos) {
            const detail::TextPosition p = detail::position_of(m_text, bad);
            static const char* hex = "0123456789ABCDEF";
            const auto u = static_cast<unsigned char>(m_text[bad]);
            throw LoadError(m_file, p.line, p.column, "",
                            std::string("invalid UTF-8 (byte 0x") + hex[u >> 4] + hex[u & 15] + "; save the file as UTF-8)");
        }
        m_records = parse_csv(m_text, m_file);
        std::size_t first = 0;
        while (first < m_records.size() && blank(m_records[first])) ++first;
        if (first == m_records.size())
            throw LoadError(m_file, 1, 1, "", "file is empty (expected a header row: name,cost,preconditions,effects)");
        read_header(m_records[first]);
        std::vector<const CsvRecord*> rows;
        for (std::size_t i = first + 1; i < m_records.size(); ++i)
            if (!row_blank(m_records[i])) rows.push_back(&m_records[i]);
        std::vector<const CsvRecord*> wide;  // rows with cells outside the header's columns
        for (const CsvRecord* r : rows)
            if (!guarded([&] { check_row_width(*r); })) wide.push_back(r);
        if (!wide.empty())
            rows.erase(std::remove_if(rows.begin(), rows.end(),
                                      [&](const CsvRecord* r) { return std::find(wide.begin(), wide.end(), r) != wide.end(); }),
                       rows.end());

        // Declarations first, so they bind wherever they are in the file.
        for (const CsvRecord* r : rows)
            if (name_of(*r) == "@atoms") guarded([&] { read_atoms(*r); });
        if (m_tolerant) m_tolerant->atoms_declared = m_declared;
        for (const CsvRecord* r : rows)
            if (name_of(*r).rfind("@variable:", 0) == 0) guarded([&] { read_variable(*r); });
        for (const CsvRecord* r : rows)
            if (name_of(*r) == "@shared") guarded([&] { read_shared(*r); });

        struct NamedGoal {
            std::string name;
            Parts condition, when;
            Priority priority;
            goap::RetryPolicy retry;
        };
        std::vector<goap::Literal> start, goal;
        std::vector<goap::NumericEffect> start_values;
        std::vector<goap::Comparison> goal_cmps;
        bool has_start = false, has_goal = false;
        std::vector<NamedGoal> named;
        std::unordered_map<std::string, std::size_t> goal_lines;
        // The domain stores two dense conditions (care and value bits over every atom) per action and one
        // per goal: the row after which they would exceed their budget is remembered, and the file is
        // refused there before any table is built (lint included: it stops reading).
        const auto table_error = [&] {
            return detail::table_budget_error(m_builder.atom_count(), m_builder.action_count(), named.size() + (has_goal ? 1 : 0),
                                              kDefaultMaxTableBytes, "io::kDefaultMaxTableBytes");
        };
        const CsvRecord* crossing = nullptr;
        for (const CsvRecord* rp : rows) {
            guarded([&] {
                const CsvRecord& r = *rp;
                const std::string name = name_of(r);
                if (name == "@atoms" || name == "@shared" || name.rfind("@variable:", 0) == 0) return;
                if (name.empty()) fail_content(r, kName, "missing action name (the row has other cells filled)");
                if (name == "@start") {
                    if (has_start) fail_content(r, kName, "a second @start row (the first is on line " + std::to_string(m_start_line) + ")");
                    has_start = true;
                    m_start_line = r.line;
                    require_empty(r, kCost, "@start");
                    require_empty(r, kPre, "@start");
                    require_empty_optional(r, "@start");
                    Parts p = parts(r, kEff);
                    for (std::size_t i = 0; i < p.effects.size(); ++i) {
                        const goap::NumericEffect& e = p.effects[i];
                        if (e.op != goap::EffectOp::Set)
                            fail(r, kEff, "@start gives values: write 'var=value' (found '+=' or '-=' on '" +
                                              printable(m_builder_var_name(e.var)) + "')", p.effect_offsets[i]);
                        start_values.push_back(e);
                    }
                    start = std::move(p.literals);
                } else if (name == "@goal") {
                    if (has_goal) fail_content(r, kName, "a second @goal row (the first is on line " + std::to_string(m_goal_line) + ")");
                    has_goal = true;
                    m_goal_line = r.line;
                    require_empty(r, kCost, "@goal (a priority belongs to a named goal, @goal:NAME)");
                    require_empty(r, kEff, "@goal");
                    require_empty_optional(r, "@goal (a condition or back-off belongs to a named goal, @goal:NAME)");
                    Parts p = parts(r, kPre);
                    goal = std::move(p.literals);
                    goal_cmps = std::move(p.comparisons);
                    if (m_tolerant) m_tolerant->goal_place = place(r, kPre);
                } else if (name.rfind("@goal:", 0) == 0) {
                    const std::string goal_name(trim(std::string_view(name).substr(6)));
                    if (goal_name.empty()) fail_content(r, kName, "goal name missing after '@goal:'");
                    if (const auto it = goal_lines.find(goal_name); it != goal_lines.end())
                        fail_content(r, kName, "duplicate goal '" + printable(goal_name) + "' (also on line " + std::to_string(it->second) + ")");
                    goal_lines.emplace(goal_name, r.line);
                    require_empty(r, kEff, "a goal");
                    NamedGoal g{goal_name, parts(r, kPre), parts(r, kWhen), priority(r), retry(r)};
                    named.push_back(std::move(g));
                    if (m_tolerant) m_tolerant->goals_place.push_back(place(r, kPre));
                } else if (name.front() == '@') {
                    fail_content(r, kName, "unknown row kind '" + printable(name) +
                                       "' (expected @atoms, @variable:NAME, @shared, @start, @goal or @goal:NAME; action names "
                                       "cannot start with '@')");
                } else {
                    read_action(r, name);
                }
            });
            if (crossing == nullptr && !table_error().empty()) crossing = rp;
        }
        if (const std::string over = table_error(); !over.empty())
            fail(crossing != nullptr ? *crossing : *rows.front(), kName, over);

        DomainFile out;
        out.domain = m_builder.build();
        const std::size_t n = out.domain.atom_count();
        out.start = out.domain.make_state();
        for (const goap::Literal& l : start) out.start.set(l.atom, l.value);
        for (const goap::NumericEffect& e : start_values) out.start.set_value(e.var, e.value);
        const auto condition = [&](const std::vector<goap::Literal>& lits, const std::vector<goap::Comparison>& cmps) {
            goap::Condition c(n);
            for (const goap::Literal& l : lits) c.set(l.atom, l.value);
            for (const goap::Comparison& x : cmps) c.require(x);
            return c;
        };
        if (has_goal) out.goal = condition(goal, goal_cmps);
        for (NamedGoal& g : named) {
            goap::Goal goal_out{std::move(g.name), condition(g.condition.literals, g.condition.comparisons), g.priority.value,
                                condition(g.when.literals, g.when.comparisons)};
            if (!g.priority.variable.empty()) {
                goal_out.priority_var = out.domain.find_variable(g.priority.variable);
                goal_out.priority_scale = g.priority.scale;
                goal_out.priority_offset = g.priority.offset;
            }
            goal_out.retry = g.retry;
            out.goals.push_back(std::move(goal_out));
        }
        return out;
    }

private:
    // Runs one row's work; when tolerant, a LoadError is collected instead of thrown. True if it passed.
    template <class Fn>
    bool guarded(Fn&& fn) {
        if (!m_tolerant) {
            fn();
            return true;
        }
        try {
            fn();
            return true;
        } catch (const LoadError& e) {
            m_tolerant->errors.push_back(e);
            return false;
        }
    }

    void note_atom(goap::AtomId id, const CsvRecord& r, Column c) {
        if (!m_tolerant) return;
        auto& places = m_tolerant->atom_place;
        if (places.size() <= id.value) places.resize(id.value + 1);
        if (places[id.value].line == 0) places[id.value] = place(r, c);
    }

    static bool blank(const CsvRecord& r) {
        return std::all_of(r.cells.begin(), r.cells.end(), [](const std::string& c) { return trim(c).empty(); });
    }
    // A data row is skipped when the four domain columns are empty (notes-only rows are section titles).
    bool row_blank(const CsvRecord& r) const {
        for (std::size_t c = 0; c < kColumns; ++c)
            if (!trim(cell(r, static_cast<Column>(c))).empty()) return false;
        for (const std::size_t i : m_unnamed)
            if (i < r.cells.size() && !trim(r.cells[i]).empty()) return false;
        return true;
    }

    // ---- positions: the physical line and character column of a cell or of a byte inside one ----

    struct Where {
        std::size_t line = 0, column = 0;
    };

    // Line and column of byte `offset` of the text, counted as parse_csv counts them (line breaks LF,
    // CRLF or a lone CR; columns in UTF-8 code points from 1, a byte order mark not counted).
    Where position(std::size_t offset) const {
        if (m_line_starts.empty()) {
            m_line_starts.push_back(m_text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0);
            for (std::size_t i = 0; i < m_text.size(); ++i)
                if (m_text[i] == '\n' || (m_text[i] == '\r' && (i + 1 >= m_text.size() || m_text[i + 1] != '\n')))
                    m_line_starts.push_back(i + 1);
        }
        offset = std::min(offset, m_text.size());
        const auto it = std::upper_bound(m_line_starts.begin(), m_line_starts.end(), offset);
        const std::size_t index = it == m_line_starts.begin() ? 0 : static_cast<std::size_t>(it - m_line_starts.begin()) - 1;
        Where w{index + 1, 1};
        for (std::size_t i = m_line_starts[index]; i < offset; ++i)
            if ((static_cast<unsigned char>(m_text[i]) & 0xC0) != 0x80) ++w.column;
        return w;
    }

    // The byte just after the record's last cell as written (where a missing cell would go).
    std::size_t record_end(const CsvRecord& r) const {
        if (r.offsets.empty()) return 0;
        std::size_t at = r.offsets.back();
        if (at < m_text.size() && m_text[at] == '"') {
            for (++at; at < m_text.size(); ++at) {
                if (m_text[at] != '"') continue;
                if (at + 1 < m_text.size() && m_text[at + 1] == '"') {
                    ++at;
                    continue;
                }
                return at + 1;
            }
            return at;
        }
        while (at < m_text.size() && m_text[at] != ',' && m_text[at] != '\r' && m_text[at] != '\n') ++at;
        return at;
    }

    // Where cell `index` of `r` is written: its first character (the opening quote of a quoted cell),
    // or with `inner` the character at byte `inner` of the cell's text (quotes removed).
    Where where(const CsvRecord& r, std::size_t index, std::size_t inner = std::string_view::npos) const {
        if (index >= r.offsets.size()) return position(record_end(r));
        std::size_t at = r.offsets[index];
        if (inner != std::string_view::npos) {
            if (at < m_text.size() && m_text[at] == '"') {
                ++at;  // past the opening quote; a doubled quote is one character of the text
                for (std::size_t k = 0; k < inner && at < m_text.size(); ++k) at += m_text[at] == '"' ? 2 : 1;
            } else {
                at += inner;
            }
        }
        return position(at);
    }

    // Byte offset of `part` (a view into the cell's text) in the cell of column `c`.
    std::size_t inner(const CsvRecord& r, Column c, std::string_view part) const {
        const std::string_view whole = cell(r, c);
        if (part.data() < whole.data() || part.data() > whole.data() + whole.size()) return std::string_view::npos;
        return static_cast<std::size_t>(part.data() - whole.data());
    }

    // The first non-blank character of a cell (its first character when it is blank).
    std::size_t first_char(const CsvRecord& r, Column c) const {
        const std::size_t b = cell(r, c).find_first_not_of(kBlank);
        return b == std::string_view::npos ? std::string_view::npos : b;
    }

    detail::Place place(const CsvRecord& r, Column c) const {
        const Where w = where(r, m_index[c], first_char(r, c));
        return detail::Place{w.line, w.column, m_headers[c]};
    }

    // An error about the cell of column `c`, at byte `inner` of its text (npos: the cell's first character).
    [[noreturn]] void fail(const CsvRecord& r, Column c, const std::string& message,
                           std::size_t inner = std::string_view::npos) const {
        const Where w = where(r, m_index[c], inner);
        throw LoadError(m_file, w.line, w.column, m_headers[c], message);
    }
    // An error about the cell's content: at its first non-blank character.
    [[noreturn]] void fail_content(const CsvRecord& r, Column c, const std::string& message) const {
        fail(r, c, message, first_char(r, c));
    }

    std::string_view cell(const CsvRecord& r, Column c) const {
        const std::size_t i = m_index[c];
        return i < r.cells.size() ? std::string_view(r.cells[i]) : std::string_view();
    }
    std::string name_of(const CsvRecord& r) const { return std::string(trim(cell(r, kName))); }
    // Optional columns a row kind does not use must be empty (or absent).
    void require_empty_optional(const CsvRecord& r, const std::string& what) const {
        for (const Column c : {kWhen, kRetry})
            if (m_index[c] != std::string_view::npos) require_empty(r, c, what);
    }

    void require_empty(const CsvRecord& r, Column c, const std::string& what) const {
        if (!trim(cell(r, c)).empty())
            fail_content(r, c, "must be empty for " + what + " (found '" + printable(trim(cell(r, c))) + "')");
    }

    void read_header(const CsvRecord& h) {
        std::fill(std::begin(m_index), std::end(m_index), std::string_view::npos);
        for (std::size_t i = 0; i < h.cells.size(); ++i) {
            const std::string_view raw = trim(h.cells[i]);
            const std::string key = lower(raw);
            bool known = false;
            for (std::size_t c = 0; c < kColumns; ++c) {
                if (key != kColumnNames[c]) continue;
                if (m_index[c] != std::string_view::npos) {
                    const Where w = where(h, i);
                    throw LoadError(m_file, w.line, w.column, "header", "duplicate column '" + printable(raw) + "'");
                }
                m_index[c] = i;
                m_headers[c] = std::string(raw);
                known = true;
            }
            if (known || (!key.empty() && key.front() == '_') || key == "notes") continue;
            if (key.empty()) {
                m_unnamed.push_back(i);  // allowed while every cell under it is empty (checked per row)
                continue;
            }
            std::vector<std::string> names(std::begin(kColumnNames), std::end(kColumnNames));
            names.emplace_back("notes");
            const std::string guess = closest_name(key, names);
            const Where w = where(h, i);
            guarded([&] { throw LoadError(m_file, w.line, w.column, "header",
                            "unknown column '" + printable(raw) + "'" +
                                (guess.empty() ? std::string() : " (did you mean '" + guess + "'?)") +
                                "; the columns are name, cost, preconditions, effects, optionally when and retry, "
                                "and columns named 'notes' or starting with '_' are ignored"); });
        }
        for (std::size_t c = 0; c < kRequired; ++c)
            if (m_index[c] == std::string_view::npos)
                throw LoadError(m_file, h.line, where(h, 0).column, "header",
                                "missing column '" + std::string(kColumnNames[c]) +
                                    "' (the header row names the columns name, cost, preconditions, effects)");
        m_width = h.cells.size();
    }

    void check_row_width(const CsvRecord& r) const {
        const auto at = [&](std::size_t i) { return where(r, i, r.cells[i].find_first_not_of(kBlank)); };
        for (std::size_t i = m_width; i < r.cells.size(); ++i)
            if (!trim(r.cells[i]).empty())
                throw LoadError(m_file, at(i).line, at(i).column, "",
                                "the row has " + std::to_string(r.cells.size()) + " cells but the header names only " +
                                    std::to_string(m_width) + " columns (cell " + std::to_string(i + 1) + " is '" +
                                    printable(trim(r.cells[i])) + "')");
        for (const std::size_t i : m_unnamed)
            if (i < r.cells.size() && !trim(r.cells[i]).empty())
                throw LoadError(m_file, at(i).line, at(i).column, "",
                                "cell " + std::to_string(i + 1) + " ('" + printable(trim(r.cells[i])) +
                                    "') is in a column without a header (name the column, or 'notes' to ignore it)");
    }

    std::vector<CsvItem> items(const CsvRecord& r, Column c) const {
        std::vector<CsvItem> out;
        std::size_t at = std::string_view::npos;
        const std::string error = parse_csv_items(cell(r, c), out, &at);
        if (!error.empty()) fail(r, c, error, at);
        return out;
    }

    // Plain atom names (for @atoms and @shared).
    std::vector<CsvItem> names(const CsvRecord& r, const char* what) const {
        require_empty(r, kCost, what);
        require_empty(r, kPre, std::string(what) + " (list the atoms in the effects cell)");
        require_empty_optional(r, what);
        std::vector<CsvItem> out = items(r, kEff);
        for (const CsvItem& item : out)
            if (item.kind != CsvItemKind::Atom || !item.value)
                fail(r, kEff, std::string(what) + " lists atom names only (found '" + printable(item.text) + "')", item.offset);
        return out;
    }

    void read_atoms(const CsvRecord& r) {
        if (m_declared) fail_content(r, kName, "a second @atoms row (the first is on line " + std::to_string(m_atoms_line) + ")");
        m_declared = true;
        m_atoms_line = r.line;
        for (const CsvItem& item : names(r, "@atoms")) {
            const std::string& name = item.name;
            if (m_builder.find_atom(name).valid()) fail(r, kEff, "duplicate atom '" + printable(name) + "'", item.name_offset);
            note_atom(m_builder.add_atom(name), r, kEff);
            m_declared_names.push_back(name);
        }
    }

    void read_shared(const CsvRecord& r) {
        for (const CsvItem& item : names(r, "@shared")) {
            if (const goap::VarId v = m_builder.find_variable(item.name); v.valid()) m_builder.set_shared(v, true);
            else m_builder.set_shared(atom(r, kEff, item.name, item.name_offset), true);
        }
    }

    const std::string& m_builder_var_name(goap::VarId v) const { return m_var_names[v.value]; }

    // `@variable:NAME` with the effects cell `MIN..MAX` (an integer variable) or `a|b|c` (an enumeration).
    void read_variable(const CsvRecord& r) {
        const std::string full = name_of(r);
        const std::string name(trim(std::string_view(full).substr(10)));
        const std::string_view raw_name = cell(r, kName);
        const std::size_t name_at = raw_name.find_first_not_of(kBlank, raw_name.find("@variable:") + 10);
        if (name.empty()) fail_content(r, kName, "variable name missing after '@variable:'");
        check_item_name(r, kName, name, "variable", name_at);
        require_empty(r, kCost, "@variable");
        require_empty(r, kPre, "@variable (its range or values go in the effects cell)");
        require_empty_optional(r, "@variable");
        if (m_builder.find_variable(name).valid()) fail(r, kName, "duplicate variable '" + printable(name) + "'", name_at);
        if (m_builder.find_atom(name).valid()) fail(r, kName, "'" + printable(name) + "' is already an atom", name_at);
        const std::string_view spec = trim(cell(r, kEff));
        const std::size_t spec_at = inner(r, kEff, spec);
        if (spec.empty())
            fail(r, kEff, "missing range or values of variable '" + printable(name) +
                              "' (write MIN..MAX for an integer, e.g. 0..10, or the values separated by '|', e.g. home|forest)");
        goap::VarId id;
        if (const std::size_t dots = spec.find(".."); dots != std::string_view::npos) {
            const std::optional<std::int32_t> lo = parse_int32(spec.substr(0, dots));
            const std::optional<std::int32_t> hi = parse_int32(spec.substr(dots + 2));
            if (!lo || !hi)
                fail(r, kEff, "range '" + printable(spec) + "' of variable '" + printable(name) +
                                  "' must be MIN..MAX with two integers in the 32-bit range, e.g. 0..10",
                     lo ? inner(r, kEff, trim(spec.substr(dots + 2))) : spec_at);
            if (*hi < *lo)
                fail(r, kEff, "max (" + std::to_string(*hi) + ") is less than min (" + std::to_string(*lo) + ") for variable '" +
                                  printable(name) + "'", spec_at);
            id = m_builder.add_integer_variable(name, *lo, *hi);
        } else {
            std::vector<std::string> values;
            std::size_t pos = 0;
            while (pos <= spec.size()) {
                std::size_t end = spec.find('|', pos);
                if (end == std::string_view::npos) end = spec.size();
                const std::string_view piece = trim(spec.substr(pos, end - pos));
                const std::size_t value_at = piece.empty() ? inner(r, kEff, spec.substr(std::min(end, spec.size()))) : inner(r, kEff, piece);
                const std::string value(piece);
                pos = end + 1;
                if (value.empty()) fail(r, kEff, "an empty value in '" + printable(spec) + "' (values are separated by '|')", value_at);
                check_item_name(r, kEff, value, "value", value_at);
                if (std::find(values.begin(), values.end(), value) != values.end())
                    fail(r, kEff, "duplicate value '" + printable(value) + "' of variable '" + printable(name) + "'", value_at);
                values.push_back(value);
            }
            if (values.size() == 1 && parse_int32(values.front()))
                fail(r, kEff, "'" + printable(spec) + "' is a single number: an integer variable is written MIN..MAX (e.g. 0.." +
                                  printable(spec) + ")", spec_at);
            id = m_builder.add_enum_variable(name, values);
            m_enum_values.emplace(id.value, std::move(values));
        }
        if (!id.valid()) fail(r, kName, "invalid variable '" + printable(name) + "'", name_at);
        if (m_var_names.size() <= id.value) m_var_names.resize(id.value + 1);
        m_var_names[id.value] = name;
        m_var_bounds.resize(m_var_names.size());
        const std::size_t dots = spec.find("..");
        if (dots != std::string_view::npos) m_var_bounds[id.value] = {*parse_int32(spec.substr(0, dots)), *parse_int32(spec.substr(dots + 2))};
        else m_var_bounds[id.value] = {0, static_cast<std::int32_t>(m_enum_values.at(id.value).size()) - 1};
    }

    void check_item_name(const CsvRecord& r, Column c, const std::string& name, const char* what, std::size_t at) const {
        if (name.find_first_of(";=<>|") != std::string::npos || name.front() == '!' || name.find("..") != std::string::npos ||
            name.front() == '+' || name.back() == '+' || name.back() == '-')
            fail(r, c, std::string(what) + " name '" + printable(name) +
                           "' cannot be used in cells (no ';', '=', '<', '>', '|', '..', no leading '!' or '+', no trailing "
                           "'+' or '-')", at);
    }

    bool is_enum(goap::VarId v) const { return m_enum_values.count(v.value) != 0; }

    // The variable an item names, or a LoadError (with "did you mean" among the variables).
    goap::VarId variable(const CsvRecord& r, Column c, const CsvItem& item) const {
        const goap::VarId v = m_builder.find_variable(item.name);
        if (v.valid()) return v;
        if (m_var_names.empty())
            fail(r, c, "numeric item '" + printable(item.text) + "' needs a variable '" + printable(item.name) +
                           "': declare it in a row '@variable:" + printable(item.name) +
                           "' with its range (e.g. 0..10) or values (e.g. home|forest) in the effects cell; a boolean item "
                           "is 'atom' or '!atom'", item.name_offset);
        const std::string guess = closest_name(item.name, m_var_names);
        fail(r, c, "unknown variable '" + printable(item.name) + "' in '" + printable(item.text) + "'" +
                       (guess.empty() ? std::string(" (declare it in a row '@variable:" + printable(item.name) + "')")
                                      : " (did you mean '" + printable(guess) + "'?)"),
             item.name_offset);
    }

    // A value of `v` as written after an operator: an integer within its bounds, or a value name.
    std::int32_t value_of(const CsvRecord& r, Column c, goap::VarId v, const CsvItem& item) const {
        const std::string& name = m_var_names[v.value];
        if (is_enum(v)) {
            const std::vector<std::string>& values = m_enum_values.at(v.value);
            const auto it = std::find(values.begin(), values.end(), item.operand);
            if (it == values.end()) {
                std::string list;
                for (const std::string& x : values) list += (list.empty() ? "" : ", ") + x;
                const std::string guess = closest_name(item.operand, values);
                fail(r, c, "'" + printable(item.operand) + "' is not a value of '" + printable(name) + "'" +
                               (guess.empty() ? "" : " (did you mean '" + printable(guess) + "'?)") + "; its values: " + printable(list),
                     item.operand_offset);
            }
            return static_cast<std::int32_t>(it - values.begin());
        }
        const std::optional<std::int32_t> x = parse_int32(item.operand);
        if (!x)
            fail(r, c, "'" + printable(item.operand) + "' in '" + printable(item.text) + "' is not an integer ('" + printable(name) +
                           "' is an integer variable)", item.operand_offset);
        const auto [lo, hi] = m_var_bounds[v.value];
        if (*x < lo || *x > hi)
            fail(r, c, "value " + std::to_string(*x) + " in '" + printable(item.text) + "' is outside the bounds " +
                           std::to_string(lo) + ".." + std::to_string(hi) + " of '" + printable(name) + "'",
                 item.operand_offset);
        return *x;
    }

    goap::AtomId atom(const CsvRecord& r, Column c, const std::string& name, std::size_t at) {
        if (!m_declared) {
            const goap::AtomId id = m_builder.add_atom(name);
            note_atom(id, r, c);
            return id;
        }
        const goap::AtomId id = m_builder.find_atom(name);
        if (id.valid()) {
            note_atom(id, r, c);
            return id;
        }
        const std::string guess = closest_name(name, m_declared_names);
        fail(r, c, "unknown atom '" + printable(name) + "'" +
                       (guess.empty() ? std::string(" (not listed in @atoms on line " + std::to_string(m_atoms_line) + ")")
                                      : " (did you mean '" + printable(guess) + "'?)"),
             at);
    }

    // A condition (c != kEff) or effect (c == kEff) cell: atoms, comparisons or numeric effects.
    Parts parts(const CsvRecord& r, Column c) {
        const bool effect = c == kEff;
        Parts out;
        for (const CsvItem& item : items(r, c)) {
            if (item.kind != CsvItemKind::Atom) {
                if (!m_builder.find_variable(item.name).valid() && m_builder.find_atom(item.name).valid())
                    fail(r, c, "'" + printable(item.name) + "' is an atom, not a variable: write '" + printable(item.name) + "' or '!" +
                                   printable(item.name) + "' (found '" + printable(item.text) + "')", item.name_offset);
                const goap::VarId v = variable(r, c, item);
                const std::string& name = m_var_names[v.value];
                if ((item.kind == CsvItemKind::Assignment) != effect)
                    fail(r, c, effect ? "'" + item.op + "' in '" + printable(item.text) +
                                            "' compares: an effect assigns with =, += or -="
                                      : "'" + item.op + "' in '" + printable(item.text) +
                                            "' assigns: a condition compares with ==, !=, <, <=, > or >=",
                         item.op_offset);
                if (effect) {
                    goap::NumericEffect e{v, goap::EffectOp::Set, 0};
                    if (item.op == "=") {
                        e.value = value_of(r, c, v, item);
                    } else {
                        if (is_enum(v))
                            fail(r, c, "'" + printable(name) + "' is an enumerated variable: only = sets it (found '" +
                                           printable(item.text) + "')", item.op_offset);
                        const std::optional<std::int32_t> x = parse_int32(item.operand);
                        if (!x || *x < 0)
                            fail(r, c, "the amount in '" + printable(item.text) + "' must be an integer >= 0" +
                                           (x ? " (use '" + std::string(item.op == "+=" ? "-=" : "+=") + "' to go the other way)" : ""),
                                 item.operand_offset);
                        e.op = item.op == "+=" ? goap::EffectOp::Add : goap::EffectOp::Sub;
                        e.value = *x;
                    }
                    for (const goap::NumericEffect& other : out.effects)
                        if (other.var == v) fail(r, c, "variable '" + printable(name) + "' is changed twice", item.offset);
                    out.effects.push_back(e);
                    out.effect_offsets.push_back(item.offset);
                } else {
                    static const std::pair<std::string_view, goap::CompareOp> ops[] = {
                        {"==", goap::CompareOp::Eq}, {"!=", goap::CompareOp::Ne}, {"<", goap::CompareOp::Lt},
                        {"<=", goap::CompareOp::Le}, {">", goap::CompareOp::Gt},  {">=", goap::CompareOp::Ge}};
                    const auto* it = std::find_if(std::begin(ops), std::end(ops), [&](const auto& o) { return o.first == item.op; });
                    if (is_enum(v) && it->second != goap::CompareOp::Eq && it->second != goap::CompareOp::Ne)
                        fail(r, c, "'" + printable(name) + "' is an enumerated variable: only == and != compare it (found '" +
                                       printable(item.text) + "')", item.op_offset);
                    out.comparisons.push_back(goap::Comparison{v, it->second, value_of(r, c, v, item)});
                }
                continue;
            }
            if (m_builder.find_variable(item.name).valid())
                fail(r, c, "'" + printable(item.name) + "' is a variable: " +
                               (effect ? "write 'var=value', 'var+=n' or 'var-=n'" : "compare it, e.g. '" + printable(item.name) + ">=1'") +
                               " (found '" + printable(item.text) + "')", item.offset);
            const goap::AtomId id = atom(r, c, item.name, item.name_offset);
            for (const goap::Literal& l : out.literals)
                if (l.atom == id && l.value != item.value)
                    fail(r, c, "atom '" + printable(item.name) + "' is listed both as true and as false", item.offset);
            out.literals.push_back(goap::Literal{id, item.value});
        }
        return out;
    }

    // A named goal's priority: a number, or `[SCALE*]VAR[+OFFSET|-OFFSET]` reading an integer variable.
    Priority priority(const CsvRecord& r) const {
        Priority p;
        const std::string_view text = trim(cell(r, kCost));
        if (text.empty()) return p;
        if (const std::optional<double> v = parse_number(text)) {
            p.value = *v;
            return p;
        }
        std::string_view rest = text;
        const std::size_t star = rest.find('*');
        const auto bad = [&]() {
            fail_content(r, kCost, "a goal's priority must be a finite number or SCALE*VARIABLE+OFFSET (e.g. 1.5*hunger+2; found '" +
                               printable(text) + "')");
        };
        if (star != std::string_view::npos) {
            const std::optional<double> scale = parse_number(rest.substr(0, star));
            if (!scale) bad();
            p.scale = *scale;
            rest = trim(rest.substr(star + 1));
        }
        std::size_t sign = std::string_view::npos;
        for (std::size_t i = 1; i < rest.size(); ++i)
            if ((rest[i] == '+' || rest[i] == '-') && rest[i - 1] != 'e' && rest[i - 1] != 'E') {
                // the first sign after the name that starts a number
                if (parse_number(rest.substr(i + 1))) {
                    sign = i;
                    break;
                }
            }
        std::string_view name = trim(rest.substr(0, sign));
        if (sign != std::string_view::npos) {
            const std::optional<double> off = parse_number(rest.substr(sign + 1));
            if (!off) bad();
            p.offset = rest[sign] == '-' ? -*off : *off;
        }
        if (name.empty() || m_var_names.empty()) bad();
        const goap::VarId v = m_builder.find_variable(name);
        if (!v.valid()) {
            const std::string guess = closest_name(name, m_var_names);
            fail(r, kCost, "unknown variable '" + printable(name) + "' in the priority '" + printable(text) + "'" +
                               (guess.empty() ? std::string(" (a priority is a number or SCALE*VARIABLE+OFFSET)")
                                              : " (did you mean '" + printable(guess) + "'?)"),
                 inner(r, kCost, name));
        }
        if (is_enum(v)) fail(r, kCost, "'" + printable(name) + "' is an enumerated variable, not a number", inner(r, kCost, name));
        p.variable = std::string(name);
        return p;
    }

    // The retry cell: empty (no back-off), `on` (3 failures, 60 ticks) or `after_failures=N; cooldown_ticks=T`.
    goap::RetryPolicy retry(const CsvRecord& r) const {
        const std::string_view text = trim(cell(r, kRetry));
        if (text.empty()) return goap::RetryPolicy{};
        goap::RetryPolicy out = goap::kDefaultRetry;
        if (text == "on") return out;
        std::vector<CsvItem> parsed;
        const std::size_t base = inner(r, kRetry, text);
        std::size_t at = 0;
        if (const std::string error = parse_csv_items(text, parsed, &at); !error.empty()) fail(r, kRetry, error, base + at);
        for (const CsvItem& item : parsed) {
            const bool known = item.name == "after_failures" || item.name == "cooldown_ticks";
            std::int32_t v = -1;
            if (item.kind == CsvItemKind::Assignment && item.op == "=") v = parse_int32(item.operand).value_or(-1);
            if (!known || v < 0)
                fail(r, kRetry, "expected 'on' or 'after_failures=N; cooldown_ticks=T' with integers >= 0 (found '" +
                                    printable(item.text) + "')",
                     base + (known && item.kind == CsvItemKind::Assignment && item.op == "=" ? item.operand_offset : item.offset));
            (item.name == "after_failures" ? out.after_failures : out.cooldown_ticks) = static_cast<std::uint32_t>(v);
        }
        return out;
    }

    void read_action(const CsvRecord& r, const std::string& name) {
        const std::string_view cost_text = trim(cell(r, kCost));
        if (cost_text.empty()) fail(r, kCost, "missing cost (a finite number >= 0)");
        const std::optional<double> cost = parse_number(cost_text);
        if (!cost || *cost < 0) fail_content(r, kCost, "must be a finite number >= 0 (found '" + printable(cost_text) + "')");
        if (m_index[kWhen] != std::string_view::npos) require_empty(r, kWhen, "an action (a condition of when it applies is a precondition)");
        const Parts pre = parts(r, kPre);
        const Parts eff = parts(r, kEff);
        const goap::DomainError err = m_builder.add_action(name, *cost, pre.literals, eff.literals, pre.comparisons, eff.effects);
        if (err == goap::DomainError::DuplicateAction)
            fail_content(r, kName, "duplicate action '" + printable(name) + "' (also on line " + std::to_string(m_action_lines.at(name)) + ")");
        if (err != goap::DomainError::None) fail_content(r, kName, std::string(goap::to_string(err)));
        m_action_lines.emplace(name, r.line);
        if (!trim(cell(r, kRetry)).empty()) (void)m_builder.set_retry(name, retry(r));
        if (m_tolerant) m_tolerant->action_place.push_back(place(r, kName));
    }

    std::string_view m_text;
    std::string m_file;
    detail::TolerantDomain* m_tolerant = nullptr;
    std::vector<CsvRecord> m_records;
    std::size_t m_index[kColumns] = {};
    std::string m_headers[kColumns];
    std::vector<std::size_t> m_unnamed;
    std::size_t m_width = 0;
    goap::DomainBuilder m_builder;
    bool m_declared = false;
    std::size_t m_atoms_line = 0, m_start_line = 0, m_goal_line = 0;
    std::vector<std::string> m_declared_names;
    std::unordered_map<std::string, std::size_t> m_action_lines;
    std::vector<std::string> m_var_names;                                 // by variable id
    std::vector<std::pair<std::int32_t, std::int32_t>> m_var_bounds;      // by variable id
    std::unordered_map<std::uint32_t, std::vector<std::string>> m_enum_values;  // enumerations' value names
    mutable std::vector<std::size_t> m_line_starts;  // byte offsets where lines start (built on the first error)
};

// ---- writers ----------------------------------------------------------------------------------------

void check_atom_name(const std::string& name) {
    const bool bad = name.empty() || trim(name).size() != name.size() || name.find_first_of(";=<>") != std::string::npos ||
                     name.front() == '!';
    if (bad)
        throw std::invalid_argument("atom '" + printable(name) +
                                    "' cannot be written as a CSV item (names must be non-empty, without surrounding "
                                    "spaces, without ';', '=', '<', '>' and not start with '!')");
}

// Variable names and enumeration values: also no '|', '..', no leading '+', no trailing '+' or '-'
// (the reader would split or misread them).
void check_var_name(const std::string& name, const char* what) {
    const bool bad = name.empty() || trim(name).size() != name.size() || name.find_first_of(";=<>|*") != std::string::npos ||
                     name.front() == '!' || name.front() == '+' || name.back() == '+' || name.back() == '-' ||
                     name.find("..") != std::string::npos || parse_number(name).has_value();
    if (bad)
        throw std::invalid_argument(std::string(what) + " '" + printable(name) +
                                    "' cannot be written as a CSV item (no surrounding spaces, ';', '=', '<', '>', '|', '*', "
                                    "'..', no leading '!' or '+', no trailing '+' or '-', not a number)");
}

std::string_view compare_text(goap::CompareOp op) {
    switch (op) {
        case goap::CompareOp::Eq: return "==";
        case goap::CompareOp::Ne: return "!=";
        case goap::CompareOp::Lt: return "<";
        case goap::CompareOp::Le: return "<=";
        case goap::CompareOp::Gt: return ">";
        case goap::CompareOp::Ge: return ">=";
    }
    return "==";
}

std::string value_text(const goap::Domain& d, goap::VarId v, std::int32_t value) {
    if (d.variable_kind(v) == goap::VariableKind::Enumeration) return d.variable_values(v)[static_cast<std::size_t>(value)];
    return std::to_string(value);
}

std::string items_of(const goap::Domain& d, const goap::Condition& c) {
    std::string out;
    c.for_each([&](goap::Literal l) {
        const std::string& name = d.atom_name(l.atom);
        check_atom_name(name);
        out += (out.empty() ? "" : "; ") + std::string(l.value ? "" : "!") + name;
    });
    for (const goap::Comparison& x : c.comparisons())
        out += (out.empty() ? "" : "; ") + d.variable_name(x.var) + std::string(compare_text(x.op)) + value_text(d, x.var, x.value);
    return out;
}

std::string effect_items(const goap::Domain& d, goap::ActionId a) {
    std::string out = items_of(d, d.effects(a));
    for (const goap::NumericEffect& e : d.numeric_effects(a)) {
        const char* op = e.op == goap::EffectOp::Set ? "=" : e.op == goap::EffectOp::Add ? "+=" : "-=";
        const std::string v = e.op == goap::EffectOp::Set ? value_text(d, e.var, e.value) : std::to_string(e.value);
        out += (out.empty() ? "" : "; ") + d.variable_name(e.var) + op + v;
    }
    return out;
}

std::string retry_text(const goap::RetryPolicy& r) {
    return "after_failures=" + std::to_string(r.after_failures) + "; cooldown_ticks=" + std::to_string(r.cooldown_ticks);
}

std::string row(std::string_view name, std::string_view cost, std::string_view pre, std::string_view eff, bool extra,
                std::string_view when = {}, std::string_view retry = {}) {
    std::string out = csv_field(name) + ',' + csv_field(cost) + ',' + csv_field(pre) + ',' + csv_field(eff);
    if (extra) out += ',' + csv_field(when) + ',' + csv_field(retry);
    return out + "\r\n";
}

}  // namespace

DomainFile parse_domain_csv(std::string_view text, std::string_view file_name) {
    return CsvLoader(text, file_name).load();
}

namespace detail {
TolerantDomain read_domain_csv_tolerant(std::string_view text, std::string_view file_name) {
    TolerantDomain out;
    try {
        out.file = CsvLoader(text, file_name, &out).load();
    } catch (const LoadError& e) {  // the CSV itself, its encoding or its header: nothing to read on
        out.readable = false;
        out.errors.push_back(e);
    }
    out.atom_place.resize(out.file.domain.atom_count());
    return out;
}
}  // namespace detail

DomainFile load_domain_csv(const std::filesystem::path& path) {
    const std::string text = read_text_input(path, CsvLimits{}.max_bytes);
    return parse_domain_csv(text, input_name(path));
}

std::string write_domain_csv(const DomainFile& file) {
    const goap::Domain& d = file.domain;
    // The optional columns `when` and `retry` are written only when some goal or action uses them.
    bool extra = false;
    for (std::uint32_t i = 0; i < d.action_count(); ++i) extra |= d.retry_policy(goap::ActionId(i)) != goap::RetryPolicy{};
    for (const goap::Goal& g : file.goals) extra |= !g.when.empty() || g.retry != goap::RetryPolicy{};
    std::string out = extra ? "name,cost,preconditions,effects,when,retry\r\n" : "name,cost,preconditions,effects\r\n";
    std::string atoms, shared, start;
    for (std::uint32_t i = 0; i < d.atom_count(); ++i) {
        const goap::AtomId a(i);
        check_atom_name(d.atom_name(a));
        atoms += (atoms.empty() ? "" : "; ") + d.atom_name(a);
        if (d.is_shared(a)) shared += (shared.empty() ? "" : "; ") + d.atom_name(a);
        if (a.value < file.start.atom_count() && file.start.get(a)) start += (start.empty() ? "" : "; ") + d.atom_name(a);
    }
    out += row("@atoms", "", "", atoms, extra);
    for (std::uint32_t i = 0; i < d.variable_count(); ++i) {
        const goap::VarId v(i);
        check_var_name(d.variable_name(v), "variable");
        std::string spec;
        if (d.variable_kind(v) == goap::VariableKind::Enumeration) {
            for (const std::string& value : d.variable_values(v)) {
                check_var_name(value, "value");
                spec += (spec.empty() ? "" : "|") + value;
            }
        } else {
            spec = std::to_string(d.variable_min(v)) + ".." + std::to_string(d.variable_max(v));
        }
        out += row("@variable:" + d.variable_name(v), "", "", spec, extra);
        if (d.is_shared(v)) shared += (shared.empty() ? "" : "; ") + d.variable_name(v);
        if (file.start.var_count() == d.variable_count())
            start += (start.empty() ? "" : "; ") + d.variable_name(v) + "=" + value_text(d, v, file.start.value(v));
    }
    if (!shared.empty()) out += row("@shared", "", "", shared, extra);
    out += row("@start", "", "", start, extra);
    if (file.goal) out += row("@goal", "", items_of(d, *file.goal), "", extra);
    for (const goap::Goal& g : file.goals) {
        if (g.name.empty() || trim(g.name).size() != g.name.size())
            throw std::invalid_argument("goal '" + printable(g.name) + "' cannot be written (empty or surrounded by spaces)");
        std::string priority = format_number(g.priority);
        if (g.priority_var.valid())
            priority = format_number(g.priority_scale) + "*" + d.variable_name(g.priority_var) +
                       (g.priority_offset < 0 || std::signbit(g.priority_offset) ? "-" : "+") +
                       format_number(std::fabs(g.priority_offset));
        out += row("@goal:" + g.name, priority, items_of(d, g.condition), "", extra, g.when.empty() ? "" : items_of(d, g.when),
                   g.retry == goap::RetryPolicy{} ? "" : retry_text(g.retry));
    }
    for (std::uint32_t i = 0; i < d.action_count(); ++i) {
        const goap::ActionId a(i);
        const std::string& name = d.action_name(a);
        if (name.empty() || name.front() == '@' || trim(name).size() != name.size())
            throw std::invalid_argument("action '" + printable(name) +
                                        "' cannot be written as a CSV row (names must not start with '@' or have "
                                        "surrounding spaces)");
        out += row(name, format_number(d.action_cost(a)), items_of(d, d.preconditions(a)), effect_items(d, a), extra, "",
                   d.retry_policy(a) == goap::RetryPolicy{} ? "" : retry_text(d.retry_policy(a)));
    }
    return out;
}

std::string write_domain_json(const DomainFile& file) {
    using Json = nlohmann::ordered_json;
    const goap::Domain& d = file.domain;
    const auto number = [](double v) -> Json {
        if (v == std::floor(v) && std::fabs(v) < 9.0e15 && !(v == 0 && std::signbit(v))) return static_cast<std::int64_t>(v);
        return v;
    };
    const auto value = [&](goap::VarId v, std::int32_t x) -> Json {
        if (d.variable_kind(v) == goap::VariableKind::Enumeration) return d.variable_values(v)[static_cast<std::size_t>(x)];
        return x;
    };
    const auto object = [&](const goap::Condition& c) {
        Json j = Json::object();
        c.for_each([&](goap::Literal l) { j[d.atom_name(l.atom)] = l.value; });
        for (const goap::Comparison& x : c.comparisons()) j[d.variable_name(x.var)] = Json::array({std::string(compare_text(x.op)), value(x.var, x.value)});
        return j;
    };
    const auto retry = [](const goap::RetryPolicy& r) {
        Json j = Json::object();
        j["after_failures"] = r.after_failures;
        j["cooldown_ticks"] = r.cooldown_ticks;
        return j;
    };
    Json atoms = Json::array(), shared = Json::array(), start = Json::object(), variables = Json::object();
    for (std::uint32_t i = 0; i < d.atom_count(); ++i) {
        const goap::AtomId a(i);
        atoms.push_back(d.atom_name(a));
        if (d.is_shared(a)) shared.push_back(d.atom_name(a));
        if (a.value < file.start.atom_count() && file.start.get(a)) start[d.atom_name(a)] = true;
    }
    for (std::uint32_t i = 0; i < d.variable_count(); ++i) {
        const goap::VarId v(i);
        Json spec = Json::object();
        if (d.variable_kind(v) == goap::VariableKind::Enumeration) {
            Json values = Json::array();
            for (const std::string& x : d.variable_values(v)) values.push_back(x);
            spec["values"] = values;
        } else {
            spec["min"] = d.variable_min(v);
            spec["max"] = d.variable_max(v);
        }
        if (d.is_shared(v)) spec["shared"] = true;
        variables[d.variable_name(v)] = spec;
        if (file.start.var_count() == d.variable_count()) start[d.variable_name(v)] = value(v, file.start.value(v));
    }
    std::string out = "{\n  \"atoms\": " + atoms.dump() + ",\n";
    if (!variables.empty()) out += "  \"variables\": " + variables.dump() + ",\n";
    if (!shared.empty()) out += "  \"shared\": " + shared.dump() + ",\n";
    out += "  \"actions\": [";
    for (std::uint32_t i = 0; i < d.action_count(); ++i) {
        const goap::ActionId a(i);
        Json j = Json::object();
        j["name"] = d.action_name(a);
        j["cost"] = number(d.action_cost(a));
        j["preconditions"] = object(d.preconditions(a));
        Json eff = object(d.effects(a));
        for (const goap::NumericEffect& e : d.numeric_effects(a))
            eff[d.variable_name(e.var)] = Json::array({e.op == goap::EffectOp::Set ? "=" : e.op == goap::EffectOp::Add ? "+" : "-",
                                                       e.op == goap::EffectOp::Set ? value(e.var, e.value) : Json(e.value)});
        j["effects"] = eff;
        if (d.retry_policy(a) != goap::RetryPolicy{}) j["retry"] = retry(d.retry_policy(a));
        out += std::string(i ? "," : "") + "\n    " + j.dump();
    }
    out += d.action_count() ? "\n  ],\n" : "],\n";
    out += "  \"start\": " + start.dump();
    if (file.goal) out += ",\n  \"goal\": " + object(*file.goal).dump();
    if (!file.goals.empty()) {
        out += ",\n  \"goals\": {";
        for (std::size_t i = 0; i < file.goals.size(); ++i) {
            const goap::Goal& g = file.goals[i];
            Json j = Json::object();
            j["conditions"] = object(g.condition);
            if (g.priority_var.valid()) {
                Json p = Json::object();
                p["variable"] = d.variable_name(g.priority_var);
                p["scale"] = number(g.priority_scale);
                p["offset"] = number(g.priority_offset);
                j["priority"] = p;
            } else {
                j["priority"] = number(g.priority);
            }
            if (!g.when.empty()) j["when"] = object(g.when);
            if (g.retry != goap::RetryPolicy{}) j["retry"] = retry(g.retry);
            out += std::string(i ? "," : "") + "\n    " + Json(g.name).dump() + ": " + j.dump();
        }
        out += "\n  }";
    }
    out += "\n}\n";
    return out;
}

}  // namespace gameplan::io

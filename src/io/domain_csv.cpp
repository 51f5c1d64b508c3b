#include <gameplan/io/domain_csv.hpp>
#include <gameplan/io/domain_file.hpp>
#include <gameplan/io/load_error.hpp>

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
                throw LoadError(file, record.line, 0, "",
                                "row too long (more than " + std::to_string(limits.max_record_bytes) + " bytes)");
        };
        for (;;) {
            if (record.cells.size() >= limits.max_cells)
                fail(pos, "too many cells in one row (the limit is " + std::to_string(limits.max_cells) + ")");
            std::string cell;
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

std::string parse_csv_items(std::string_view cell, std::vector<CsvItem>& out) {
    std::size_t pos = 0;
    while (pos <= cell.size()) {
        std::size_t end = cell.find(';', pos);
        if (end == std::string_view::npos) end = cell.size();
        const std::string_view item = trim(cell.substr(pos, end - pos));
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
        if (op_at == std::string_view::npos) {
            std::string_view name = item;
            if (name.front() == '!') {
                parsed.value = false;
                name = trim(name.substr(1));
                if (name.empty()) return "item '" + shown + "' has no atom name after '!'";
            }
            parsed.kind = CsvItemKind::Atom;
            parsed.name = std::string(name);
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
        if (name.empty()) return "item '" + shown + "' has no variable name before '" + op + "'";
        if (!name.empty() && name.front() == '!') return "item '" + shown + "' puts '!' before a comparison (write 'var!=value')";
        if (operand.empty()) return "item '" + shown + "' has no value after '" + op + "'";
        if (operand.find_first_of("=<>") != std::string_view::npos)
            return "item '" + shown + "' has more than one operator (separate items with ';')";
        parsed.kind = (op == "=" || op == "+=" || op == "-=") ? CsvItemKind::Assignment : CsvItemKind::Comparison;
        parsed.name = std::string(name);
        parsed.op = op;
        parsed.operand = std::string(operand);
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

enum Column : std::size_t { kName, kCost, kPre, kEff, kColumns };
constexpr std::string_view kColumnNames[kColumns] = {"name", "cost", "preconditions", "effects"};

class CsvLoader {
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
            throw LoadError(m_file, 1, 0, "", "file is empty (expected a header row: name,cost,preconditions,effects)");
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
            if (name_of(*r) == "@shared") guarded([&] { read_shared(*r); });

        struct NamedGoal {
            std::string name;
            std::vector<goap::Literal> literals;
            double priority;
        };
        std::vector<goap::Literal> start, goal;
        bool has_start = false, has_goal = false;
        std::vector<NamedGoal> named;
        std::unordered_map<std::string, std::size_t> goal_lines;
        for (const CsvRecord* rp : rows) guarded([&] {
            const CsvRecord& r = *rp;
            const std::string name = name_of(r);
            if (name == "@atoms" || name == "@shared") return;
            if (name.empty()) fail(r, kName, "missing action name (the row has other cells filled)");
            if (name == "@start") {
                if (has_start) fail(r, kName, "a second @start row (the first is on line " + std::to_string(m_start_line) + ")");
                has_start = true;
                m_start_line = r.line;
                require_empty(r, kCost, "@start");
                require_empty(r, kPre, "@start");
                start = literals(r, kEff);
            } else if (name == "@goal") {
                if (has_goal) fail(r, kName, "a second @goal row (the first is on line " + std::to_string(m_goal_line) + ")");
                has_goal = true;
                m_goal_line = r.line;
                require_empty(r, kCost, "@goal (a priority belongs to a named goal, @goal:NAME)");
                require_empty(r, kEff, "@goal");
                goal = literals(r, kPre);
                if (m_tolerant) m_tolerant->goal_place = detail::Place{r.line, 0, m_headers[kPre]};
            } else if (name.rfind("@goal:", 0) == 0) {
                const std::string goal_name(trim(std::string_view(name).substr(6)));
                if (goal_name.empty()) fail(r, kName, "goal name missing after '@goal:'");
                if (const auto it = goal_lines.find(goal_name); it != goal_lines.end())
                    fail(r, kName, "duplicate goal '" + printable(goal_name) + "' (also on line " + std::to_string(it->second) + ")");
                goal_lines.emplace(goal_name, r.line);
                require_empty(r, kEff, "a goal");
                double priority = 0;
                if (!trim(cell(r, kCost)).empty()) {
                    const std::optional<double> p = parse_number(cell(r, kCost));
                    if (!p) fail(r, kCost, "a goal's priority must be a finite number (found '" + printable(trim(cell(r, kCost))) + "')");
                    priority = *p;
                }
                named.push_back(NamedGoal{goal_name, literals(r, kPre), priority});
                if (m_tolerant) m_tolerant->goals_place.push_back(detail::Place{r.line, 0, m_headers[kPre]});
            } else if (name.front() == '@') {
                fail(r, kName, "unknown row kind '" + printable(name) +
                                   "' (expected @atoms, @shared, @start, @goal or @goal:NAME; action names cannot start with '@')");
            } else {
                read_action(r, name);
            }
        });

        DomainFile out;
        out.domain = m_builder.build();
        const std::size_t n = out.domain.atom_count();
        out.start = goap::WorldState(n);
        for (const goap::Literal& l : start) out.start.set(l.atom, l.value);
        if (has_goal) {
            goap::Condition c(n);
            for (const goap::Literal& l : goal) c.set(l.atom, l.value);
            out.goal = std::move(c);
        }
        for (NamedGoal& g : named) {
            goap::Condition c(n);
            for (const goap::Literal& l : g.literals) c.set(l.atom, l.value);
            out.goals.push_back(goap::Goal{std::move(g.name), std::move(c), g.priority});
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
        if (places[id.value].line == 0) places[id.value] = detail::Place{r.line, 0, m_headers[c]};
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

    [[noreturn]] void fail(const CsvRecord& r, Column c, const std::string& message) const {
        throw LoadError(m_file, r.line, 0, m_headers[c], message);
    }

    std::string_view cell(const CsvRecord& r, Column c) const {
        const std::size_t i = m_index[c];
        return i < r.cells.size() ? std::string_view(r.cells[i]) : std::string_view();
    }
    std::string name_of(const CsvRecord& r) const { return std::string(trim(cell(r, kName))); }

    void require_empty(const CsvRecord& r, Column c, const std::string& what) const {
        if (!trim(cell(r, c)).empty())
            fail(r, c, "must be empty for " + what + " (found '" + printable(trim(cell(r, c))) + "')");
    }

    void read_header(const CsvRecord& h) {
        std::fill(std::begin(m_index), std::end(m_index), std::string_view::npos);
        for (std::size_t i = 0; i < h.cells.size(); ++i) {
            const std::string_view raw = trim(h.cells[i]);
            const std::string key = lower(raw);
            bool known = false;
            for (std::size_t c = 0; c < kColumns; ++c) {
                if (key != kColumnNames[c]) continue;
                if (m_index[c] != std::string_view::npos)
                    throw LoadError(m_file, h.line, 0, "header", "duplicate column '" + printable(raw) + "'");
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
            guarded([&] { throw LoadError(m_file, h.line, 0, "header",
                            "unknown column '" + printable(raw) + "'" +
                                (guess.empty() ? std::string() : " (did you mean '" + guess + "'?)") +
                                "; the columns are name, cost, preconditions, effects, and columns named 'notes' "
                                "or starting with '_' are ignored"); });
        }
        for (std::size_t c = 0; c < kColumns; ++c)
            if (m_index[c] == std::string_view::npos)
                throw LoadError(m_file, h.line, 0, "header",
                                "missing column '" + std::string(kColumnNames[c]) +
                                    "' (the header row names the columns name, cost, preconditions, effects)");
        m_width = h.cells.size();
    }

    void check_row_width(const CsvRecord& r) const {
        for (std::size_t i = m_width; i < r.cells.size(); ++i)
            if (!trim(r.cells[i]).empty())
                throw LoadError(m_file, r.line, 0, "",
                                "the row has " + std::to_string(r.cells.size()) + " cells but the header names only " +
                                    std::to_string(m_width) + " columns (cell " + std::to_string(i + 1) + " is '" +
                                    printable(trim(r.cells[i])) + "')");
        for (const std::size_t i : m_unnamed)
            if (i < r.cells.size() && !trim(r.cells[i]).empty())
                throw LoadError(m_file, r.line, 0, "",
                                "cell " + std::to_string(i + 1) + " ('" + printable(trim(r.cells[i])) +
                                    "') is in a column without a header (name the column, or 'notes' to ignore it)");
    }

    std::vector<CsvItem> items(const CsvRecord& r, Column c) const {
        std::vector<CsvItem> out;
        const std::string error = parse_csv_items(cell(r, c), out);
        if (!error.empty()) fail(r, c, error);
        return out;
    }

    // Plain atom names (for @atoms and @shared).
    std::vector<std::string> names(const CsvRecord& r, const char* what) const {
        require_empty(r, kCost, what);
        require_empty(r, kPre, std::string(what) + " (list the atoms in the effects cell)");
        std::vector<std::string> out;
        for (const CsvItem& item : items(r, kEff)) {
            if (item.kind != CsvItemKind::Atom || !item.value)
                fail(r, kEff, std::string(what) + " lists atom names only (found '" + printable(item.text) + "')");
            out.push_back(item.name);
        }
        return out;
    }

    void read_atoms(const CsvRecord& r) {
        if (m_declared) fail(r, kName, "a second @atoms row (the first is on line " + std::to_string(m_atoms_line) + ")");
        m_declared = true;
        m_atoms_line = r.line;
        for (const std::string& name : names(r, "@atoms")) {
            if (m_builder.find_atom(name).valid()) fail(r, kEff, "duplicate atom '" + printable(name) + "'");
            note_atom(m_builder.add_atom(name), r, kEff);
            m_declared_names.push_back(name);
        }
    }

    void read_shared(const CsvRecord& r) {
        for (const std::string& name : names(r, "@shared")) m_builder.set_shared(atom(r, kEff, name), true);
    }

    goap::AtomId atom(const CsvRecord& r, Column c, const std::string& name) {
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
                                      : " (did you mean '" + printable(guess) + "'?)"));
    }

    std::vector<goap::Literal> literals(const CsvRecord& r, Column c) {
        const bool effect = c == kEff;
        std::vector<goap::Literal> out;
        for (const CsvItem& item : items(r, c)) {
            if (item.kind != CsvItemKind::Atom) {
                const bool fits = (item.kind == CsvItemKind::Assignment) == effect;
                std::string message = "numeric item '" + printable(item.text) + "' needs a variable '" + printable(item.name) +
                                      "' declared as numeric, and this domain has boolean atoms only";
                if (!fits)
                    message += effect ? " (besides, '" + item.op + "' compares: an effect assigns with =, += or -=)"
                                      : " (besides, '" + item.op + "' assigns: a condition compares with ==, !=, <, <=, > or >=)";
                message += "; a boolean item is 'atom' or '!atom'";
                fail(r, c, message);
            }
            const goap::AtomId id = atom(r, c, item.name);
            for (const goap::Literal& l : out)
                if (l.atom == id && l.value != item.value)
                    fail(r, c, "atom '" + printable(item.name) + "' is listed both as true and as false");
            out.push_back(goap::Literal{id, item.value});
        }
        return out;
    }

    void read_action(const CsvRecord& r, const std::string& name) {
        const std::string_view cost_text = trim(cell(r, kCost));
        if (cost_text.empty()) fail(r, kCost, "missing cost (a finite number >= 0)");
        const std::optional<double> cost = parse_number(cost_text);
        if (!cost || *cost < 0) fail(r, kCost, "must be a finite number >= 0 (found '" + printable(cost_text) + "')");
        const std::vector<goap::Literal> pre = literals(r, kPre);
        const std::vector<goap::Literal> eff = literals(r, kEff);
        const goap::DomainError err = m_builder.add_action(name, *cost, pre, eff);
        if (err == goap::DomainError::DuplicateAction)
            fail(r, kName, "duplicate action '" + printable(name) + "' (also on line " + std::to_string(m_action_lines.at(name)) + ")");
        if (err != goap::DomainError::None) fail(r, kName, std::string(goap::to_string(err)));
        m_action_lines.emplace(name, r.line);
        if (m_tolerant) m_tolerant->action_place.push_back(detail::Place{r.line, 0, m_headers[kName]});
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

std::string items_of(const goap::Domain& d, const goap::Condition& c) {
    std::string out;
    c.for_each([&](goap::Literal l) {
        const std::string& name = d.atom_name(l.atom);
        check_atom_name(name);
        out += (out.empty() ? "" : "; ") + std::string(l.value ? "" : "!") + name;
    });
    return out;
}

std::string row(std::string_view name, std::string_view cost, std::string_view pre, std::string_view eff) {
    return csv_field(name) + ',' + csv_field(cost) + ',' + csv_field(pre) + ',' + csv_field(eff) + "\r\n";
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

namespace {
// The writers know boolean atoms only: a domain with numeric or enumerated variables is refused rather
// than written without them (a silent loss).
void refuse_variables(const goap::Domain& d, const char* format) {
    if (d.variable_count() > 0)
        throw std::invalid_argument(std::string("cannot write this domain as ") + format +
                                    ": it has numeric or enumerated variables, which the domain writers do not "
                                    "support yet (keep the JSON file as the source)");
}
}  // namespace

std::string write_domain_csv(const DomainFile& file) {
    const goap::Domain& d = file.domain;
    refuse_variables(d, "CSV");
    std::string out = "name,cost,preconditions,effects\r\n";
    std::string atoms, shared, start;
    for (std::uint32_t i = 0; i < d.atom_count(); ++i) {
        const goap::AtomId a(i);
        check_atom_name(d.atom_name(a));
        atoms += (atoms.empty() ? "" : "; ") + d.atom_name(a);
        if (d.is_shared(a)) shared += (shared.empty() ? "" : "; ") + d.atom_name(a);
        if (a.value < file.start.atom_count() && file.start.get(a)) start += (start.empty() ? "" : "; ") + d.atom_name(a);
    }
    out += row("@atoms", "", "", atoms);
    if (!shared.empty()) out += row("@shared", "", "", shared);
    out += row("@start", "", "", start);
    if (file.goal) out += row("@goal", "", items_of(d, *file.goal), "");
    for (const goap::Goal& g : file.goals) {
        if (g.name.empty() || trim(g.name).size() != g.name.size())
            throw std::invalid_argument("goal '" + printable(g.name) + "' cannot be written (empty or surrounded by spaces)");
        out += row("@goal:" + g.name, format_number(g.priority), items_of(d, g.condition), "");
    }
    for (std::uint32_t i = 0; i < d.action_count(); ++i) {
        const goap::ActionId a(i);
        const std::string& name = d.action_name(a);
        if (name.empty() || name.front() == '@' || trim(name).size() != name.size())
            throw std::invalid_argument("action '" + printable(name) +
                                        "' cannot be written as a CSV row (names must not start with '@' or have "
                                        "surrounding spaces)");
        out += row(name, format_number(d.action_cost(a)), items_of(d, d.preconditions(a)), items_of(d, d.effects(a)));
    }
    return out;
}

std::string write_domain_json(const DomainFile& file) {
    using Json = nlohmann::ordered_json;
    const goap::Domain& d = file.domain;
    refuse_variables(d, "JSON");
    const auto number = [](double v) -> Json {
        if (v == std::floor(v) && std::fabs(v) < 9.0e15) return static_cast<std::int64_t>(v);
        return v;
    };
    const auto object = [&](const goap::Condition& c) {
        Json j = Json::object();
        c.for_each([&](goap::Literal l) { j[d.atom_name(l.atom)] = l.value; });
        return j;
    };
    Json atoms = Json::array(), shared = Json::array(), start = Json::object();
    for (std::uint32_t i = 0; i < d.atom_count(); ++i) {
        const goap::AtomId a(i);
        atoms.push_back(d.atom_name(a));
        if (d.is_shared(a)) shared.push_back(d.atom_name(a));
        if (a.value < file.start.atom_count() && file.start.get(a)) start[d.atom_name(a)] = true;
    }
    std::string out = "{\n  \"atoms\": " + atoms.dump() + ",\n";
    if (!shared.empty()) out += "  \"shared\": " + shared.dump() + ",\n";
    out += "  \"actions\": [";
    for (std::uint32_t i = 0; i < d.action_count(); ++i) {
        const goap::ActionId a(i);
        Json j = Json::object();
        j["name"] = d.action_name(a);
        j["cost"] = number(d.action_cost(a));
        j["preconditions"] = object(d.preconditions(a));
        j["effects"] = object(d.effects(a));
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
            j["priority"] = number(g.priority);
            out += std::string(i ? "," : "") + "\n    " + Json(g.name).dump() + ": " + j.dump();
        }
        out += "\n  }";
    }
    out += "\n}\n";
    return out;
}

}  // namespace gameplan::io

#include <gameplan/io/limits.hpp>
#include <gameplan/io/load_error.hpp>
#include <gameplan/io/pddl.hpp>

#include "number_text.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace gameplan::io {

namespace {

// Most arguments of a predicate or function, and most parameters of an action (PddlLimits::max_parameters
// is capped at this).
constexpr std::size_t kMaxArity = 64;
// Most preconditions of one action schema (the grounder recurses once per precondition).
constexpr std::size_t kMaxPreconditions = 4096;

// ---------------------------------------------------------------------------------------------------
// S-expressions

struct Node {
    bool list = false;
    std::string atom;  // lower-cased token (atoms only)
    std::vector<Node> items;
    std::size_t line = 0, column = 0;
};

class Reader {
public:
    Reader(std::string_view text, std::string_view file, const PddlLimits& limits)
        : m_text(text), m_file(file), m_limits(limits) {}

    [[noreturn]] void fail(std::size_t line, std::size_t column, const std::string& message) const {
        throw LoadError(std::string(m_file), line, column, "", message);
    }

    // The whole file must be one list (comments and white space around it).
    Node read_document() {
        if (m_text.size() > m_limits.max_bytes)
            fail(0, 0, "the file is larger than the limit of " + format_bytes(m_limits.max_bytes));
        skip_space();
        if (m_pos >= m_text.size()) fail(m_line, m_col, "empty file: expected '(define ...'");
        if (m_text[m_pos] != '(') fail(m_line, m_col, "expected '(' to start '(define ...'");
        Node root = read_node(1);
        skip_space();
        if (m_pos < m_text.size()) fail(m_line, m_col, "unexpected text after the closing ')' of 'define'");
        return root;
    }

private:
    void advance() {
        if (m_text[m_pos] == '\n') {
            ++m_line;
            m_col = 1;
        } else {
            ++m_col;
        }
        ++m_pos;
    }
    void skip_space() {
        while (m_pos < m_text.size()) {
            const char c = m_text[m_pos];
            if (c == ';') {
                while (m_pos < m_text.size() && m_text[m_pos] != '\n') advance();
            } else if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
                advance();
            } else {
                break;
            }
        }
    }
    void count_token() {
        if (++m_tokens > m_limits.max_tokens)
            fail(m_line, m_col, "more than " + std::to_string(m_limits.max_tokens) + " tokens (the limit)");
    }
    Node read_node(std::size_t depth) {
        Node n;
        n.line = m_line;
        n.column = m_col;
        count_token();
        if (m_text[m_pos] == '(') {
            if (depth > m_limits.max_depth)
                fail(m_line, m_col, "parentheses nested deeper than " + std::to_string(m_limits.max_depth) + " levels (the limit)");
            n.list = true;
            advance();
            for (;;) {
                skip_space();
                if (m_pos >= m_text.size()) fail(n.line, n.column, "this '(' is never closed");
                if (m_text[m_pos] == ')') {
                    advance();
                    count_token();
                    return n;
                }
                n.items.push_back(read_node(depth + 1));
            }
        }
        if (m_text[m_pos] == ')') fail(m_line, m_col, "unexpected ')'");
        while (m_pos < m_text.size()) {
            const char c = m_text[m_pos];
            if (c == '(' || c == ')' || c == ';' || c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v')
                break;
            const unsigned char u = static_cast<unsigned char>(c);
            if (u < 0x20 || u == 0x7f) fail(m_line, m_col, "control character in a name");
            n.atom.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c);
            advance();
        }
        return n;
    }

    std::string_view m_text;
    std::string_view m_file;
    const PddlLimits& m_limits;
    std::size_t m_pos = 0, m_line = 1, m_col = 1, m_tokens = 0;
};

// ---------------------------------------------------------------------------------------------------
// Shared parsing helpers

class Parser {
public:
    Parser(std::string_view file, const PddlLimits& limits) : m_file(file), m_limits(limits) {}

    [[noreturn]] void fail(const Node& at, const std::string& message) const {
        throw LoadError(std::string(m_file), at.line, at.column, "", message);
    }
    const Node& expect_list(const Node& n, const char* what) const {
        if (!n.list) fail(n, std::string("expected a list ") + what + ", found '" + n.atom + "'");
        return n;
    }
    const std::string& expect_name(const Node& n, const char* what) const {
        if (n.list) fail(n, std::string("expected ") + what + ", found a list");
        if (n.atom.empty()) fail(n, std::string("expected ") + what);
        return n.atom;
    }
    static bool is_keyword(const Node& n, std::string_view k) { return !n.list && n.atom == k; }
    static bool is_variable(const std::string& s) { return !s.empty() && s[0] == '?'; }

    // A typed list: `a b - t c - u d` (untyped names get "object"). `variables` = names must start with
    // '?' (parameters) or must not (objects, constants, types).
    std::vector<PddlTypedName> typed_list(const Node& list, std::size_t from, bool variables, const char* what) const {
        std::vector<PddlTypedName> out;
        std::size_t pending = 0;  // names since the last type
        for (std::size_t i = from; i < list.items.size(); ++i) {
            const Node& n = list.items[i];
            if (n.list) {
                if (!n.items.empty() && is_keyword(n.items[0], "either"))
                    fail(n, "unsupported: 'either' types (a name has exactly one type)");
                fail(n, std::string("expected ") + what + ", found a list");
            }
            if (n.atom == "-") {
                if (pending == 0) fail(n, "'-' without names before it");
                if (i + 1 >= list.items.size()) fail(n, "'-' without a type after it");
                const Node& t = list.items[++i];
                if (t.list) {
                    if (!t.items.empty() && is_keyword(t.items[0], "either"))
                        fail(t, "unsupported: 'either' types (a name has exactly one type)");
                    fail(t, "expected a type name after '-'");
                }
                check_plain(t, "a type name");
                for (std::size_t k = out.size() - pending; k < out.size(); ++k) out[k].type = t.atom;
                pending = 0;
                continue;
            }
            if (variables != is_variable(n.atom))
                fail(n, variables ? "expected a parameter ('?name'), found '" + n.atom + "'"
                                  : "expected " + std::string(what) + ", found the variable '" + n.atom + "'");
            if (!variables) check_plain(n, what);
            out.push_back(PddlTypedName{n.atom, "object", n.line, n.column});
            ++pending;
        }
        return out;
    }
    void check_arity(const Node& at, std::size_t count) const {
        const std::size_t limit = std::min(m_limits.max_parameters, kMaxArity);
        if (count > limit) fail(at, "more than " + std::to_string(limit) + " parameters (the limit)");
    }
    void check_plain(const Node& n, const char* what) const {
        if (n.atom.empty() || n.atom[0] == '?' || n.atom[0] == ':' || n.atom == "-")
            fail(n, std::string("expected ") + what + ", found '" + n.atom + "'");
    }

    // An atom `(pred t1 ... tn)` (pred may be '=').
    PddlLiteral atom(const Node& n, bool allow_variables, const char* where) const {
        if (!n.list) fail(n, std::string("expected an atom '(predicate ...)' in ") + where + ", found '" + n.atom + "'");
        if (n.items.empty()) fail(n, std::string("empty list in ") + where);
        const Node& head = n.items[0];
        if (head.list) fail(head, std::string("expected a predicate name in ") + where);
        static const char* const unsupported[] = {"or", "imply", "exists", "forall", "when", "increase", "decrease",
                                                  "assign", "scale-up", "scale-down", "preference", "at", "over"};
        for (const char* u : unsupported)
            if (head.atom == u && !(head.atom == "at" && n.items.size() >= 2 && !n.items[1].list &&
                                    n.items[1].atom != "start" && n.items[1].atom != "end"))
                fail(head, "unsupported: '" + head.atom + "' in " + where + " (only conjunctions of literals are read)");
        if (head.atom == "<" || head.atom == ">" || head.atom == "<=" || head.atom == ">=")
            fail(head, "unsupported: numeric comparison '" + head.atom + "' in " + where);
        check_plain(head, "a predicate name");
        PddlLiteral l;
        l.predicate = head.atom;
        l.line = n.line;
        l.column = n.column;
        for (std::size_t i = 1; i < n.items.size(); ++i) {
            const Node& a = n.items[i];
            if (a.list) fail(a, std::string("unsupported: a nested term in ") + where + " (arguments are names)");
            if (is_variable(a.atom) && !allow_variables) fail(a, std::string("variable '") + a.atom + "' in " + where);
            if (a.atom.empty() || a.atom[0] == ':' || a.atom == "-") fail(a, "expected an argument, found '" + a.atom + "'");
            l.args.push_back(a.atom);
        }
        return l;
    }
    PddlLiteral literal(const Node& n, bool allow_variables, const char* where) const {
        if (n.list && !n.items.empty() && is_keyword(n.items[0], "not")) {
            if (n.items.size() != 2) fail(n, "'not' takes exactly one atom");
            PddlLiteral l = atom(n.items[1], allow_variables, where);
            if (l.predicate == "not" || l.predicate == "and") fail(n.items[1], std::string("unsupported: nested '") + l.predicate + "' under 'not' in " + where);
            l.positive = false;
            l.line = n.line;
            l.column = n.column;
            return l;
        }
        return atom(n, allow_variables, where);
    }
    // A conjunction of literals (`(and ...)`, a single literal, or `()`), flattened.
    void conjunction(const Node& n, bool allow_variables, const char* where, std::vector<PddlLiteral>& out) const {
        if (!n.list) fail(n, std::string("expected a condition in ") + where + ", found '" + n.atom + "'");
        if (n.items.empty()) return;
        if (is_keyword(n.items[0], "and")) {
            for (std::size_t i = 1; i < n.items.size(); ++i) conjunction(n.items[i], allow_variables, where, out);
            return;
        }
        out.push_back(literal(n, allow_variables, where));
    }
    double number(const Node& n, const char* what) const {
        if (n.list) fail(n, std::string("expected a number for ") + what);
        double v = 0;
        const char* b = n.atom.data();
        const char* e = b + n.atom.size();
        const auto r = detail::parse_double(b, e, v);
        if (r.ec != std::errc{} || r.ptr != e || !std::isfinite(v))
            fail(n, std::string("expected a number for ") + what + ", found '" + n.atom + "'");
        return v;
    }
    PddlNumber numeric_term(const Node& n, bool allow_variables, const char* where) const {
        PddlNumber t;
        t.line = n.line;
        t.column = n.column;
        if (!n.list) {
            t.constant = number(n, where);
            if (t.constant < 0) fail(n, std::string("negative amount in ") + where + " (costs are at least 0)");
            return t;
        }
        if (n.items.empty()) fail(n, std::string("empty list in ") + where);
        if (n.items[0].list) fail(n.items[0], std::string("expected a function name in ") + where);
        static const char* const ops[] = {"+", "-", "*", "/"};
        for (const char* op : ops)
            if (n.items[0].atom == op) fail(n.items[0], std::string("unsupported: arithmetic '") + op + "' in " + where);
        t.is_constant = false;
        const PddlLiteral a = atom(n, allow_variables, where);
        t.function = a.predicate;
        t.args = a.args;
        return t;
    }

    std::string_view m_file;
    const PddlLimits& m_limits;
};

const char* const kSupportedRequirements[] = {":strips", ":typing", ":negative-preconditions", ":equality", ":action-costs"};

PddlAction parse_action(const Parser& p, const Node& n) {
    PddlAction a;
    a.line = n.line;
    a.column = n.column;
    if (n.items.size() < 2) p.fail(n, "':action' without a name");
    a.name = p.expect_name(n.items[1], "an action name");
    p.check_plain(n.items[1], "an action name");
    bool seen_params = false, seen_pre = false, seen_eff = false;
    for (std::size_t i = 2; i < n.items.size(); i += 2) {
        const Node& key = n.items[i];
        if (key.list || key.atom.empty() || key.atom[0] != ':') p.fail(key, "expected ':parameters', ':precondition' or ':effect'");
        if (i + 1 >= n.items.size()) p.fail(key, "'" + key.atom + "' without a value");
        const Node& value = n.items[i + 1];
        if (key.atom == ":parameters") {
            if (seen_params) p.fail(key, "':parameters' given twice");
            seen_params = true;
            p.expect_list(value, "of parameters");
            a.parameters = p.typed_list(value, 0, true, "a parameter");
            p.check_arity(value, a.parameters.size());
            for (std::size_t x = 0; x < a.parameters.size(); ++x)
                for (std::size_t y = 0; y < x; ++y)
                    if (a.parameters[x].name == a.parameters[y].name)
                        throw LoadError(std::string(p.m_file), a.parameters[x].line, a.parameters[x].column, "",
                                        "parameter '" + a.parameters[x].name + "' given twice");
        } else if (key.atom == ":precondition") {
            if (seen_pre) p.fail(key, "':precondition' given twice");
            seen_pre = true;
            p.conjunction(value, true, "a precondition", a.preconditions);
            if (a.preconditions.size() > kMaxPreconditions)
                p.fail(value, "more than " + std::to_string(kMaxPreconditions) + " preconditions (the limit)");
        } else if (key.atom == ":effect") {
            if (seen_eff) p.fail(key, "':effect' given twice");
            seen_eff = true;
            std::vector<const Node*> todo{&value};
            while (!todo.empty()) {
                const Node& e = *todo.back();
                todo.pop_back();
                if (!e.list) p.fail(e, "expected an effect, found '" + e.atom + "'");
                if (e.items.empty()) continue;
                if (Parser::is_keyword(e.items[0], "and")) {
                    for (std::size_t k = e.items.size(); k-- > 1;) todo.push_back(&e.items[k]);
                    continue;
                }
                if (Parser::is_keyword(e.items[0], "increase")) {
                    if (e.items.size() != 3) p.fail(e, "'increase' takes a fluent and an amount");
                    const Node& f = e.items[1];
                    if (!f.list || f.items.size() != 1 || !Parser::is_keyword(f.items[0], "total-cost"))
                        p.fail(f, "unsupported: only '(total-cost)' may be increased");
                    a.increases.push_back(p.numeric_term(e.items[2], true, "the cost increase"));
                    continue;
                }
                PddlLiteral l = p.literal(e, true, "an effect");
                if (l.predicate == "=") p.fail(e, "equality cannot be an effect");
                (l.positive ? a.add : a.del).push_back(std::move(l));
            }
        } else {
            p.fail(key, "unsupported: '" + key.atom + "' in an action (expected ':parameters', ':precondition' or ':effect')");
        }
    }
    return a;
}

}  // namespace

PddlDomain parse_pddl_domain(std::string_view text, std::string_view file, const PddlLimits& limits) {
    Reader reader(text, file, limits);
    const Node root = reader.read_document();
    Parser p(file, limits);
    PddlDomain d;
    d.file = std::string(file);
    if (root.items.size() < 2 || !Parser::is_keyword(root.items[0], "define")) p.fail(root, "expected '(define (domain NAME) ...)'");
    const Node& head = root.items[1];
    if (!head.list || head.items.size() != 2 || !Parser::is_keyword(head.items[0], "domain")) {
        if (head.list && !head.items.empty() && Parser::is_keyword(head.items[0], "problem"))
            p.fail(head, "this is a problem file; a domain file was expected");
        p.fail(head, "expected '(domain NAME)'");
    }
    d.name = p.expect_name(head.items[1], "the domain name");
    std::set<std::string> sections;
    for (std::size_t i = 2; i < root.items.size(); ++i) {
        const Node& s = root.items[i];
        if (!s.list || s.items.empty() || s.items[0].list) p.fail(s, "expected a section like '(:predicates ...)'");
        const std::string& key = s.items[0].atom;
        if (key != ":action" && !sections.insert(key).second) p.fail(s, "section '" + key + "' given twice");
        if (key == ":requirements") {
            for (std::size_t k = 1; k < s.items.size(); ++k) {
                const std::string& r = p.expect_name(s.items[k], "a requirement");
                if (std::find_if(std::begin(kSupportedRequirements), std::end(kSupportedRequirements),
                                 [&](const char* x) { return r == x; }) == std::end(kSupportedRequirements))
                    p.fail(s.items[k], "unsupported requirement '" + r +
                                           "' (supported: :strips, :typing, :negative-preconditions, :equality, :action-costs)");
                d.requirements.push_back(r);
            }
        } else if (key == ":types") {
            d.types = p.typed_list(s, 1, false, "a type name");
        } else if (key == ":constants") {
            d.constants = p.typed_list(s, 1, false, "a constant");
        } else if (key == ":predicates") {
            for (std::size_t k = 1; k < s.items.size(); ++k) {
                const Node& pr = s.items[k];
                if (!pr.list || pr.items.empty()) p.fail(pr, "expected a predicate declaration '(name ?x ...)'");
                PddlSignature sig;
                sig.name = p.expect_name(pr.items[0], "a predicate name");
                p.check_plain(pr.items[0], "a predicate name");
                if (sig.name == "=" || sig.name == "not" || sig.name == "and") p.fail(pr.items[0], "'" + sig.name + "' cannot be declared as a predicate");
                sig.parameters = p.typed_list(pr, 1, true, "a parameter");
                p.check_arity(pr, sig.parameters.size());
                sig.line = pr.line;
                sig.column = pr.column;
                for (const PddlSignature& o : d.predicates)
                    if (o.name == sig.name) p.fail(pr, "predicate '" + sig.name + "' declared twice");
                d.predicates.push_back(std::move(sig));
            }
        } else if (key == ":functions") {
            for (std::size_t k = 1; k < s.items.size(); ++k) {
                const Node& f = s.items[k];
                if (!f.list) {
                    if (f.atom == "-" && k + 1 < s.items.size()) {
                        ++k;
                        if (s.items[k].list || s.items[k].atom != "number")
                            p.fail(s.items[k], "unsupported: function type '" + s.items[k].atom + "' (only 'number')");
                        continue;
                    }
                    p.fail(f, "expected a function declaration '(name ?x ...)'");
                }
                if (f.items.empty()) p.fail(f, "expected a function declaration '(name ?x ...)'");
                PddlSignature sig;
                sig.name = p.expect_name(f.items[0], "a function name");
                p.check_plain(f.items[0], "a function name");
                sig.parameters = p.typed_list(f, 1, true, "a parameter");
                p.check_arity(f, sig.parameters.size());
                sig.line = f.line;
                sig.column = f.column;
                d.functions.push_back(std::move(sig));
            }
        } else if (key == ":action") {
            PddlAction a = parse_action(p, s);
            for (const PddlAction& o : d.actions)
                if (o.name == a.name) p.fail(s, "action '" + a.name + "' declared twice");
            d.actions.push_back(std::move(a));
        } else {
            p.fail(s, "unsupported: section '" + key + "' (derived predicates, durative actions and the like are not read)");
        }
    }
    return d;
}

PddlProblem parse_pddl_problem(std::string_view text, std::string_view file, const PddlLimits& limits) {
    Reader reader(text, file, limits);
    const Node root = reader.read_document();
    Parser p(file, limits);
    PddlProblem pr;
    pr.file = std::string(file);
    if (root.items.size() < 2 || !Parser::is_keyword(root.items[0], "define")) p.fail(root, "expected '(define (problem NAME) ...)'");
    const Node& head = root.items[1];
    if (!head.list || head.items.size() != 2 || !Parser::is_keyword(head.items[0], "problem")) {
        if (head.list && !head.items.empty() && Parser::is_keyword(head.items[0], "domain"))
            p.fail(head, "this is a domain file; a problem file was expected");
        p.fail(head, "expected '(problem NAME)'");
    }
    pr.name = p.expect_name(head.items[1], "the problem name");
    std::set<std::string> sections;
    bool has_goal = false;
    for (std::size_t i = 2; i < root.items.size(); ++i) {
        const Node& s = root.items[i];
        if (!s.list || s.items.empty() || s.items[0].list) p.fail(s, "expected a section like '(:init ...)'");
        const std::string& key = s.items[0].atom;
        if (!sections.insert(key).second) p.fail(s, "section '" + key + "' given twice");
        if (key == ":domain") {
            if (s.items.size() != 2) p.fail(s, "expected '(:domain NAME)'");
            pr.domain_name = p.expect_name(s.items[1], "the domain name");
        } else if (key == ":requirements") {
            for (std::size_t k = 1; k < s.items.size(); ++k) {
                const std::string& r = p.expect_name(s.items[k], "a requirement");
                if (std::find_if(std::begin(kSupportedRequirements), std::end(kSupportedRequirements),
                                 [&](const char* x) { return r == x; }) == std::end(kSupportedRequirements))
                    p.fail(s.items[k], "unsupported requirement '" + r + "'");
            }
        } else if (key == ":objects") {
            pr.objects = p.typed_list(s, 1, false, "an object name");
        } else if (key == ":init") {
            for (std::size_t k = 1; k < s.items.size(); ++k) {
                const Node& f = s.items[k];
                if (f.list && f.items.size() == 3 && Parser::is_keyword(f.items[0], "=")) {
                    const Node& term = f.items[1];
                    if (!term.list || term.items.empty()) p.fail(term, "expected a fluent '(function ...)' after '='");
                    const PddlLiteral t = p.atom(term, false, ":init");
                    const double v = p.number(f.items[2], "a fluent value");
                    pr.init_values.push_back(PddlFluentValue{t.predicate, t.args, v, f.line, f.column});
                    continue;
                }
                if (f.list && !f.items.empty() && Parser::is_keyword(f.items[0], "not"))
                    p.fail(f, "negative literal in ':init' (the initial state lists the true atoms only)");
                PddlLiteral l = p.atom(f, false, ":init");
                if (l.predicate == "=") p.fail(f, "equality in ':init'");
                pr.init.push_back(std::move(l));
            }
        } else if (key == ":goal") {
            if (s.items.size() != 2) p.fail(s, "expected '(:goal CONDITION)'");
            has_goal = true;
            p.conjunction(s.items[1], false, "the goal", pr.goal);
        } else if (key == ":metric") {
            if (s.items.size() != 3 || !Parser::is_keyword(s.items[1], "minimize") || !s.items[2].list ||
                s.items[2].items.size() != 1 || !Parser::is_keyword(s.items[2].items[0], "total-cost"))
                p.fail(s, "unsupported metric (only '(:metric minimize (total-cost))')");
            pr.minimize_total_cost = true;
        } else {
            p.fail(s, "unsupported: section '" + key + "' in a problem");
        }
    }
    if (!has_goal) p.fail(root, "the problem has no ':goal'");
    return pr;
}

// ---------------------------------------------------------------------------------------------------
// Grounding

namespace {

constexpr std::uint32_t kNone = UINT32_MAX;

struct FactKeyHash {
    std::size_t operator()(const std::vector<std::uint32_t>& v) const noexcept {
        std::uint64_t h = 1469598103934665603ull;
        for (const std::uint32_t x : v) {
            h ^= x;
            h *= 1099511628211ull;
        }
        return static_cast<std::size_t>(h ^ (h >> 29));
    }
};

// A fact is [predicate, arg1, ..., argn] (object ids).
struct FactTable {
    std::unordered_map<std::vector<std::uint32_t>, std::uint32_t, FactKeyHash> index;
    std::vector<std::vector<std::uint32_t>> facts;
    std::vector<std::vector<std::uint32_t>> by_predicate;  // fact ids per predicate
    std::uint32_t find(const std::vector<std::uint32_t>& key) const {
        const auto it = index.find(key);
        return it == index.end() ? kNone : it->second;
    }
    bool insert(const std::vector<std::uint32_t>& key) {
        const auto [it, fresh] = index.emplace(key, static_cast<std::uint32_t>(facts.size()));
        if (!fresh) return false;
        facts.push_back(key);
        by_predicate[key[0]].push_back(it->second);
        return true;
    }
};

// A literal of an action schema, compiled: arguments as parameter indices (kParam bit) or object ids.
constexpr std::uint32_t kParamBit = 0x80000000u;
struct CompiledLiteral {
    std::uint32_t predicate = 0;  // kNone for equality
    std::vector<std::uint32_t> args;
    bool positive = true;
    bool is_static = false;
};
struct CompiledAction {
    const PddlAction* source = nullptr;
    std::vector<std::uint32_t> param_type;
    std::vector<CompiledLiteral> join;     // positive non-equality preconditions in join order
    std::vector<CompiledLiteral> checks;   // equality and negative preconditions
    std::vector<CompiledLiteral> add, del;
    struct Cost {
        bool is_constant = true;
        double constant = 0;
        std::uint32_t function = 0;
        std::vector<std::uint32_t> args;
    };
    std::vector<Cost> costs;
};

class Grounder {
public:
    Grounder(const PddlDomain& d, const PddlProblem& p, const PddlLimits& limits) : m_d(d), m_p(p), m_limits(limits) {}

    PddlTask run();

private:
    [[noreturn]] void fail(const std::string& file, std::size_t line, std::size_t column, const std::string& m) const {
        throw LoadError(file, line, column, "", m);
    }
    std::uint32_t type_id(const std::string& name, const std::string& file, std::size_t line, std::size_t column) const {
        const auto it = m_type_index.find(name);
        if (it == m_type_index.end()) fail(file, line, column, "unknown type '" + name + "'");
        return it->second;
    }
    bool is_a(std::uint32_t object, std::uint32_t type) const {
        return m_object_types[object][type] != 0;
    }
    void build_types();
    void build_objects();
    CompiledLiteral compile_literal(const PddlLiteral& l, const PddlAction* a, const std::string& file);
    void compile_actions();
    void enumerate(const CompiledAction& a, std::size_t depth, std::vector<std::uint32_t>& binding,
                   const std::function<void(const std::vector<std::uint32_t>&)>& done);
    void finish_binding(const CompiledAction& a, std::size_t param, std::vector<std::uint32_t>& binding,
                        const std::function<void(const std::vector<std::uint32_t>&)>& done);
    void step() {
        if (++m_steps > m_limits.max_grounding_steps)
            fail(m_p.file, 0, 0, "grounding tried more than " + std::to_string(m_limits.max_grounding_steps) +
                                     " candidate bindings (the limit); the task is too large to ground");
    }
    std::vector<std::uint32_t> ground(const CompiledLiteral& l, const std::vector<std::uint32_t>& binding) const {
        std::vector<std::uint32_t> key;
        key.reserve(l.args.size() + 1);
        key.push_back(l.predicate);
        for (const std::uint32_t x : l.args) key.push_back(x & kParamBit ? binding[x & ~kParamBit] : x);
        return key;
    }
    std::string fact_name(const std::vector<std::uint32_t>& key) const {
        std::string s = "(" + m_d.predicates[key[0]].name;
        for (std::size_t i = 1; i < key.size(); ++i) s += " " + m_objects[key[i]];
        return s + ")";
    }

    const PddlDomain& m_d;
    const PddlProblem& m_p;
    const PddlLimits& m_limits;
    std::unordered_map<std::string, std::uint32_t> m_type_index;
    std::vector<std::string> m_types;
    std::vector<std::uint32_t> m_type_parent;
    std::vector<std::string> m_objects;
    std::unordered_map<std::string, std::uint32_t> m_object_index;
    std::vector<std::uint32_t> m_object_declared;  // declared type per object
    std::vector<std::vector<std::uint8_t>> m_object_types;  // per object, per type: 1 if the object is of that type
    std::vector<std::vector<std::uint32_t>> m_objects_of_type;
    std::unordered_map<std::string, std::uint32_t> m_predicate_index;
    std::vector<std::uint8_t> m_static;  // per predicate
    std::unordered_map<std::string, std::uint32_t> m_function_index;
    std::vector<CompiledAction> m_actions;
    FactTable m_init_static;  // true static facts
    FactTable m_reach;        // reachable fluent facts
    std::unordered_map<std::vector<std::uint32_t>, double, FactKeyHash> m_values;  // [function, args] -> value
    std::uint64_t m_steps = 0;
};

void Grounder::build_types() {
    m_types.push_back("object");
    m_type_parent.push_back(kNone);
    m_type_index["object"] = 0;
    for (const PddlTypedName& t : m_d.types) {
        if (t.name == "object") continue;
        if (!m_type_index.count(t.name)) {
            m_type_index[t.name] = static_cast<std::uint32_t>(m_types.size());
            m_types.push_back(t.name);
            m_type_parent.push_back(kNone);
        }
    }
    for (const PddlTypedName& t : m_d.types) {
        if (!m_type_index.count(t.type)) {  // a parent type only named after '-'
            m_type_index[t.type] = static_cast<std::uint32_t>(m_types.size());
            m_types.push_back(t.type);
            m_type_parent.push_back(0);
        }
    }
    for (std::size_t i = 1; i < m_type_parent.size(); ++i)
        if (m_type_parent[i] == kNone) m_type_parent[i] = 0;
    for (const PddlTypedName& t : m_d.types) {
        if (t.name == "object") continue;
        const std::uint32_t id = m_type_index[t.name];
        const std::uint32_t parent = m_type_index[t.type];
        m_type_parent[id] = parent;
    }
    // Cycles: every chain must reach object within (types) steps.
    for (std::size_t i = 0; i < m_types.size(); ++i) {
        std::uint32_t t = static_cast<std::uint32_t>(i);
        for (std::size_t k = 0; t != 0 && t != kNone; ++k) {
            if (k > m_types.size()) {
                const auto it = std::find_if(m_d.types.begin(), m_d.types.end(), [&](const PddlTypedName& x) { return x.name == m_types[i]; });
                fail(m_d.file, it == m_d.types.end() ? 0 : it->line, it == m_d.types.end() ? 0 : it->column,
                     "type '" + m_types[i] + "' is its own ancestor (a cycle in ':types')");
            }
            t = m_type_parent[t];
        }
    }
}

void Grounder::build_objects() {
    const auto add = [&](const PddlTypedName& o, const std::string& file) {
        const std::uint32_t type = type_id(o.type, file, o.line, o.column);
        const auto it = m_object_index.find(o.name);
        if (it != m_object_index.end()) {
            if (m_object_declared[it->second] != type)
                fail(file, o.line, o.column, "object '" + o.name + "' declared again with another type");
            return;
        }
        const std::uint32_t id = static_cast<std::uint32_t>(m_objects.size());
        m_object_index[o.name] = id;
        m_objects.push_back(o.name);
        m_object_declared.push_back(type);
        std::vector<std::uint8_t> types(m_types.size(), 0);
        for (std::uint32_t t = type; t != kNone; t = m_type_parent[t]) types[t] = 1;
        m_object_types.push_back(std::move(types));
    };
    for (const PddlTypedName& c : m_d.constants) add(c, m_d.file);
    for (const PddlTypedName& o : m_p.objects) add(o, m_p.file);
    m_objects_of_type.assign(m_types.size(), {});
    for (std::uint32_t o = 0; o < m_objects.size(); ++o)
        for (std::uint32_t t = 0; t < m_types.size(); ++t)
            if (m_object_types[o][t]) m_objects_of_type[t].push_back(o);
}

CompiledLiteral Grounder::compile_literal(const PddlLiteral& l, const PddlAction* a, const std::string& file) {
    CompiledLiteral c;
    c.positive = l.positive;
    if (l.predicate == "=") {
        if (l.args.size() != 2) fail(file, l.line, l.column, "'=' takes two arguments");
        c.predicate = kNone;
    } else {
        const auto it = m_predicate_index.find(l.predicate);
        if (it == m_predicate_index.end()) fail(file, l.line, l.column, "unknown predicate '" + l.predicate + "'");
        c.predicate = it->second;
        const std::size_t arity = m_d.predicates[it->second].parameters.size();
        if (l.args.size() != arity)
            fail(file, l.line, l.column, "predicate '" + l.predicate + "' takes " + std::to_string(arity) + " arguments, " +
                                             std::to_string(l.args.size()) + " given");
        c.is_static = m_static[it->second] != 0;
    }
    for (const std::string& arg : l.args) {
        if (!arg.empty() && arg[0] == '?') {
            std::uint32_t index = kNone;
            if (a)
                for (std::size_t i = 0; i < a->parameters.size(); ++i)
                    if (a->parameters[i].name == arg) index = static_cast<std::uint32_t>(i);
            if (index == kNone) fail(file, l.line, l.column, "unknown parameter '" + arg + "'");
            c.args.push_back(index | kParamBit);
        } else {
            const auto it = m_object_index.find(arg);
            if (it == m_object_index.end()) fail(file, l.line, l.column, "unknown object or constant '" + arg + "'");
            c.args.push_back(it->second);
        }
    }
    return c;
}

void Grounder::compile_actions() {
    for (const PddlAction& a : m_d.actions) {
        CompiledAction c;
        c.source = &a;
        for (const PddlTypedName& p : a.parameters) c.param_type.push_back(type_id(p.type, m_d.file, p.line, p.column));
        std::vector<CompiledLiteral> positives;
        for (const PddlLiteral& l : a.preconditions) {
            CompiledLiteral cl = compile_literal(l, &a, m_d.file);
            if (cl.predicate != kNone && cl.positive) positives.push_back(std::move(cl));
            else c.checks.push_back(std::move(cl));
        }
        // Join order: greedily the literal with the most bound arguments (static first on ties), then
        // the fewest unbound.
        std::vector<std::uint8_t> bound(a.parameters.size(), 0);
        std::vector<std::uint8_t> used(positives.size(), 0);
        for (std::size_t k = 0; k < positives.size(); ++k) {
            std::size_t best = kNone;
            long best_score = 0;
            for (std::size_t i = 0; i < positives.size(); ++i) {
                if (used[i]) continue;
                long b = 0, u = 0;
                for (const std::uint32_t x : positives[i].args)
                    if (x & kParamBit) (bound[x & ~kParamBit] ? b : u) += 1;
                    else b += 1;
                const long score = b * 1000 + (positives[i].is_static ? 100 : 0) - u;
                if (best == kNone || score > best_score) {
                    best = i;
                    best_score = score;
                }
            }
            used[best] = 1;
            for (const std::uint32_t x : positives[best].args)
                if (x & kParamBit) bound[x & ~kParamBit] = 1;
            c.join.push_back(positives[best]);
        }
        for (const PddlLiteral& l : a.add) c.add.push_back(compile_literal(l, &a, m_d.file));
        for (const PddlLiteral& l : a.del) c.del.push_back(compile_literal(l, &a, m_d.file));
        for (const PddlNumber& n : a.increases) {
            CompiledAction::Cost cost;
            cost.is_constant = n.is_constant;
            cost.constant = n.constant;
            if (!n.is_constant) {
                const auto it = m_function_index.find(n.function);
                if (it == m_function_index.end()) fail(m_d.file, n.line, n.column, "unknown function '" + n.function + "'");
                if (n.function == "total-cost") fail(m_d.file, n.line, n.column, "unsupported: 'total-cost' as an amount");
                cost.function = it->second;
                if (n.args.size() != m_d.functions[it->second].parameters.size())
                    fail(m_d.file, n.line, n.column, "function '" + n.function + "' takes " +
                                                         std::to_string(m_d.functions[it->second].parameters.size()) + " arguments");
                PddlLiteral as_literal;
                as_literal.predicate = "=";
                for (const std::string& arg : n.args) {
                    if (!arg.empty() && arg[0] == '?') {
                        std::uint32_t index = kNone;
                        for (std::size_t i = 0; i < a.parameters.size(); ++i)
                            if (a.parameters[i].name == arg) index = static_cast<std::uint32_t>(i);
                        if (index == kNone) fail(m_d.file, n.line, n.column, "unknown parameter '" + arg + "'");
                        cost.args.push_back(index | kParamBit);
                    } else {
                        const auto it2 = m_object_index.find(arg);
                        if (it2 == m_object_index.end()) fail(m_d.file, n.line, n.column, "unknown object or constant '" + arg + "'");
                        cost.args.push_back(it2->second);
                    }
                }
            }
            c.costs.push_back(std::move(cost));
        }
        m_actions.push_back(std::move(c));
    }
}

void Grounder::finish_binding(const CompiledAction& a, std::size_t param, std::vector<std::uint32_t>& binding,
                              const std::function<void(const std::vector<std::uint32_t>&)>& done) {
    while (param < binding.size() && binding[param] != kNone) ++param;
    if (param < binding.size()) {
        for (const std::uint32_t o : m_objects_of_type[a.param_type[param]]) {
            step();
            binding[param] = o;
            finish_binding(a, param + 1, binding, done);
        }
        binding[param] = kNone;
        return;
    }
    for (const CompiledLiteral& l : a.checks) {
        if (l.predicate == kNone) {
            const std::uint32_t x = l.args[0] & kParamBit ? binding[l.args[0] & ~kParamBit] : l.args[0];
            const std::uint32_t y = l.args[1] & kParamBit ? binding[l.args[1] & ~kParamBit] : l.args[1];
            if ((x == y) != l.positive) return;
        } else if (l.is_static) {  // negative static: must be false in the initial state
            if (m_init_static.find(ground(l, binding)) != kNone) return;
        }
        // negative fluent preconditions are ignored by the relaxation
    }
    done(binding);
}

void Grounder::enumerate(const CompiledAction& a, std::size_t depth, std::vector<std::uint32_t>& binding,
                         const std::function<void(const std::vector<std::uint32_t>&)>& done) {
    if (depth == a.join.size()) {
        finish_binding(a, 0, binding, done);
        return;
    }
    const CompiledLiteral& l = a.join[depth];
    const FactTable& table = l.is_static ? m_init_static : m_reach;
    const std::vector<std::uint32_t>& ids = table.by_predicate[l.predicate];
    std::uint32_t newly[kMaxArity];
    const std::size_t n = l.args.size();
    for (std::size_t i = 0; i < ids.size(); ++i) {  // by index: the list may grow meanwhile (monotone)
        step();
        const std::vector<std::uint32_t>& f = table.facts[ids[i]];
        std::size_t bound_now = 0;
        bool ok = true;
        for (std::size_t k = 0; k < n; ++k) {
            const std::uint32_t x = l.args[k], v = f[k + 1];
            if (x & kParamBit) {
                const std::uint32_t p = x & ~kParamBit;
                if (binding[p] == kNone) {
                    if (!is_a(v, a.param_type[p])) {
                        ok = false;
                        break;
                    }
                    binding[p] = v;
                    newly[bound_now++] = p;
                } else if (binding[p] != v) {
                    ok = false;
                    break;
                }
            } else if (x != v) {
                ok = false;
                break;
            }
        }
        if (ok) enumerate(a, depth + 1, binding, done);
        for (std::size_t k = 0; k < bound_now; ++k) binding[newly[k]] = kNone;
    }
}

PddlTask Grounder::run() {
    build_types();
    build_objects();
    for (std::uint32_t i = 0; i < m_d.predicates.size(); ++i) {
        m_predicate_index[m_d.predicates[i].name] = i;
        for (const PddlTypedName& p : m_d.predicates[i].parameters) (void)type_id(p.type, m_d.file, p.line, p.column);
    }
    for (std::uint32_t i = 0; i < m_d.functions.size(); ++i) m_function_index[m_d.functions[i].name] = i;
    m_static.assign(m_d.predicates.size(), 1);
    for (const PddlAction& a : m_d.actions) {
        for (const PddlLiteral& l : a.add)
            if (m_predicate_index.count(l.predicate)) m_static[m_predicate_index[l.predicate]] = 0;
        for (const PddlLiteral& l : a.del)
            if (m_predicate_index.count(l.predicate)) m_static[m_predicate_index[l.predicate]] = 0;
    }
    compile_actions();
    m_init_static.by_predicate.assign(m_d.predicates.size(), {});
    m_reach.by_predicate.assign(m_d.predicates.size(), {});
    for (const PddlLiteral& l : m_p.init) {
        const CompiledLiteral c = compile_literal(l, nullptr, m_p.file);
        std::vector<std::uint32_t> key = ground(c, {});
        (c.is_static ? m_init_static : m_reach).insert(key);
    }
    for (const PddlFluentValue& v : m_p.init_values) {
        if (v.function == "total-cost") {
            if (!v.args.empty()) fail(m_p.file, v.line, v.column, "'total-cost' takes no arguments");
            continue;
        }
        const auto it = m_function_index.find(v.function);
        if (it == m_function_index.end()) fail(m_p.file, v.line, v.column, "unknown function '" + v.function + "'");
        if (v.args.size() != m_d.functions[it->second].parameters.size())
            fail(m_p.file, v.line, v.column, "function '" + v.function + "' takes " +
                                                 std::to_string(m_d.functions[it->second].parameters.size()) + " arguments");
        std::vector<std::uint32_t> key{it->second};
        for (const std::string& arg : v.args) {
            const auto o = m_object_index.find(arg);
            if (o == m_object_index.end()) fail(m_p.file, v.line, v.column, "unknown object '" + arg + "'");
            key.push_back(o->second);
        }
        if (!m_values.emplace(key, v.value).second) fail(m_p.file, v.line, v.column, "value given twice");
    }

    // Relaxed reachability: fire every action whose positive preconditions are reachable until no new
    // fact appears.
    for (bool changed = true; changed;) {
        changed = false;
        for (const CompiledAction& a : m_actions) {
            std::vector<std::uint32_t> binding(a.param_type.size(), kNone);
            enumerate(a, 0, binding, [&](const std::vector<std::uint32_t>& b) {
                for (const CompiledLiteral& l : a.add)
                    if (m_reach.insert(ground(l, b))) {
                        changed = true;
                        if (m_reach.facts.size() > m_limits.max_atoms)
                            fail(m_p.file, 0, 0, "the task grounds to more than " + std::to_string(m_limits.max_atoms) + " atoms (the limit)");
                    }
            });
        }
    }

    // Goal literals: fluent ones become atoms; static ones are decided now.
    struct GoalItem {
        std::vector<std::uint32_t> key;
        bool positive;
    };
    std::vector<GoalItem> goal_items;
    std::vector<std::vector<std::uint32_t>> impossible_true, impossible_false;  // goal atoms decided unsatisfiable
    for (const PddlLiteral& l : m_p.goal) {
        const CompiledLiteral c = compile_literal(l, nullptr, m_p.file);
        if (c.predicate == kNone) {
            if ((c.args[0] == c.args[1]) != c.positive) impossible_true.push_back({});
            continue;
        }
        std::vector<std::uint32_t> key = ground(c, {});
        if (c.is_static) {
            const bool holds = m_init_static.find(key) != kNone;
            if (holds != c.positive) (c.positive ? impossible_true : impossible_false).push_back(key);
            continue;
        }
        goal_items.push_back(GoalItem{std::move(key), c.positive});
    }

    // Ground actions.
    goap::DomainBuilder builder;
    std::vector<goap::AtomId> atom_of_fact(m_reach.facts.size());
    for (std::size_t f = 0; f < m_reach.facts.size(); ++f) atom_of_fact[f] = builder.add_atom(fact_name(m_reach.facts[f]));
    std::size_t action_total = 0;
    bool general = m_p.minimize_total_cost;
    std::vector<goap::Literal> pre, eff;
    double total_cost = 0;
    for (const CompiledAction& a : m_actions) {
        std::vector<std::uint32_t> binding(a.param_type.size(), kNone);
        enumerate(a, 0, binding, [&](const std::vector<std::uint32_t>& b) {
            pre.clear();
            eff.clear();
            for (const CompiledLiteral& l : a.join)
                if (!l.is_static) pre.push_back(goap::Literal{atom_of_fact[m_reach.find(ground(l, b))], true});
            for (const CompiledLiteral& l : a.checks) {
                if (l.predicate == kNone || l.is_static) continue;
                const std::uint32_t f = m_reach.find(ground(l, b));
                if (f != kNone) pre.push_back(goap::Literal{atom_of_fact[f], false});  // never-true atoms are always false
            }
            // contradictory preconditions: never applicable
            std::sort(pre.begin(), pre.end(), [](const goap::Literal& x, const goap::Literal& y) {
                return x.atom.value != y.atom.value ? x.atom.value < y.atom.value : x.value < y.value;
            });
            for (std::size_t i = 1; i < pre.size(); ++i)
                if (pre[i].atom == pre[i - 1].atom && pre[i].value != pre[i - 1].value) return;
            std::vector<std::uint32_t> adds;
            for (const CompiledLiteral& l : a.add) {
                const std::uint32_t f = m_reach.find(ground(l, b));
                adds.push_back(f);
                eff.push_back(goap::Literal{atom_of_fact[f], true});
            }
            for (const CompiledLiteral& l : a.del) {
                const std::uint32_t f = m_reach.find(ground(l, b));
                if (f == kNone || std::find(adds.begin(), adds.end(), f) != adds.end()) continue;  // add wins
                eff.push_back(goap::Literal{atom_of_fact[f], false});
            }
            double cost = 1;
            if (general) {
                cost = 0;
                for (const CompiledAction::Cost& c : a.costs) {
                    if (c.is_constant) {
                        cost += c.constant;
                        continue;
                    }
                    std::vector<std::uint32_t> key{c.function};
                    for (const std::uint32_t x : c.args) key.push_back(x & kParamBit ? b[x & ~kParamBit] : x);
                    const auto it = m_values.find(key);
                    if (it == m_values.end()) {
                        std::string name = "(" + m_d.functions[c.function].name;
                        for (std::size_t i = 1; i < key.size(); ++i) name += " " + m_objects[key[i]];
                        fail(m_p.file, 0, 0, "the fluent " + name + ") used as a cost has no value in ':init'");
                    }
                    if (it->second < 0) fail(m_p.file, 0, 0, "negative action cost from a fluent value");
                    cost += it->second;
                }
                if (!(cost <= kMaxActionCost))
                    fail(m_d.file, a.source->line, a.source->column, "an action of '" + a.source->name + "' costs more than " +
                                                                         std::to_string(kMaxActionCost) + " (the limit)");
                total_cost += cost;
                if (total_cost > kMaxTotalActionCost)
                    fail(m_p.file, 0, 0, "the ground actions' costs sum to more than the limit");
            }
            std::string name = "(" + a.source->name;
            for (const std::uint32_t o : b) name += " " + m_objects[o];
            name += ")";
            if (++action_total > m_limits.max_actions)
                fail(m_p.file, 0, 0, "the task grounds to more than " + std::to_string(m_limits.max_actions) + " actions (the limit)");
            const std::uint64_t words = (builder.atom_count() + 63) / 64;
            if (static_cast<double>(action_total) * 32.0 * static_cast<double>(words) > static_cast<double>(m_limits.max_table_bytes))
                fail(m_p.file, 0, 0, "the ground task's condition tables would exceed " + format_bytes(m_limits.max_table_bytes) + " (the limit)");
            const goap::DomainError e = builder.add_action(name, cost, pre, eff);
            if (e != goap::DomainError::None)
                fail(m_d.file, a.source->line, a.source->column, "cannot ground '" + name + "': " + std::string(goap::to_string(e)));
        });
    }
    // Goal atoms never reached in the relaxation and unsatisfiable static goals get atoms that no action
    // sets, so the planner reports them as unreachable.
    std::vector<goap::Literal> goal_literals;
    std::vector<goap::AtomId> start_true;
    for (const GoalItem& g : goal_items) {
        const std::uint32_t f = m_reach.find(g.key);
        if (f != kNone) goal_literals.push_back(goap::Literal{atom_of_fact[f], g.positive});
        else if (g.positive) goal_literals.push_back(goap::Literal{builder.add_atom(fact_name(g.key)), true});
    }
    for (const auto& k : impossible_true)
        goal_literals.push_back(goap::Literal{builder.add_atom(k.empty() ? std::string("(=)") : fact_name(k)), true});
    for (const auto& k : impossible_false) {
        const goap::AtomId id = builder.add_atom(fact_name(k));
        goal_literals.push_back(goap::Literal{id, false});
        start_true.push_back(id);
    }
    // p and (not p) in the goal: unsatisfiable; an atom nothing sets stands for it.
    {
        std::vector<goap::Literal> sorted = goal_literals;
        std::sort(sorted.begin(), sorted.end(), [](const goap::Literal& x, const goap::Literal& y) {
            return x.atom.value != y.atom.value ? x.atom.value < y.atom.value : x.value < y.value;
        });
        for (std::size_t i = 1; i < sorted.size(); ++i)
            if (sorted[i].atom == sorted[i - 1].atom && sorted[i].value != sorted[i - 1].value) {
                goal_literals.clear();
                goal_literals.push_back(goap::Literal{builder.add_atom("(contradictory-goal)"), true});
                break;
            }
    }
    PddlTask task;
    task.domain = builder.build();
    task.start = task.domain.make_state();
    for (const PddlLiteral& l : m_p.init) {
        const CompiledLiteral c = compile_literal(l, nullptr, m_p.file);
        if (c.is_static) continue;
        task.start.set(atom_of_fact[m_reach.find(ground(c, {}))], true);
    }
    for (const goap::AtomId id : start_true) task.start.set(id, true);
    task.goal = task.domain.make_condition();
    for (const goap::Literal& l : goal_literals) task.goal.set(l.atom, l.value);
    task.general_cost = general;
    task.static_facts = m_init_static.facts.size();
    task.grounding_steps = m_steps;
    return task;
}

}  // namespace

PddlTask ground_pddl(const PddlDomain& domain, const PddlProblem& problem, const PddlLimits& limits) {
    Grounder g(domain, problem, limits);
    return g.run();
}

PddlTask load_pddl(const std::filesystem::path& domain, const std::filesystem::path& problem, const PddlLimits& limits) {
    const std::string dtext = read_bounded_file(domain, limits.max_bytes, "PDDL domain file");
    const std::string ptext = read_bounded_file(problem, limits.max_bytes, "PDDL problem file");
    const PddlDomain d = parse_pddl_domain(dtext, domain.string(), limits);
    const PddlProblem p = parse_pddl_problem(ptext, problem.string(), limits);
    return ground_pddl(d, p, limits);
}

}  // namespace gameplan::io

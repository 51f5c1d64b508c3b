// CSV domains: the RFC 4180 reader's corner cases, the cell item syntax (numeric items included), the
// domain format's rows and errors, and conversion: every shipped and benchmark domain converted to CSV
// plans to the same optimal cost, and JSON -> CSV -> JSON is the identity on the domain.
#include <gameplan/goap/planner.hpp>
#include <gameplan/io/domain_csv.hpp>
#include <gameplan/io/domain_file.hpp>
#include <gameplan/io/domain_json.hpp>
#include <gameplan/io/load_error.hpp>

#include <load_errors.hpp>
#include <test_data.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;

namespace {

std::vector<std::vector<std::string>> cells(std::string_view text, const io::CsvLimits& limits = {}) {
    std::vector<std::vector<std::string>> out;
    for (io::CsvRecord& r : io::parse_csv(text, "t.csv", limits)) out.push_back(std::move(r.cells));
    return out;
}

using Rows = std::vector<std::vector<std::string>>;

std::string csv_error(std::string_view text, const io::CsvLimits& limits = {}) {
    return test::load_error_text([&] { (void)io::parse_csv(text, "t.csv", limits); });
}

std::string domain_error(std::string_view text, std::string_view name = "actions.csv") {
    return test::load_error_text([&] { (void)io::parse_domain_csv(text, name); });
}

// Independent equality of two domain files, by names (not ids): atoms in order with their shared
// flags, actions in order with cost and literals, start, goal, named goals.
std::string literal_text(const goap::Domain& d, const goap::Condition& c) {
    std::string s;
    for (std::uint32_t i = 0; i < d.atom_count(); ++i)
        if (c.cares(goap::AtomId(i))) s += (c.value(goap::AtomId(i)) ? "+" : "-") + d.atom_name(goap::AtomId(i)) + " ";
    // Comparisons by variable name, sorted (their order carries no meaning).
    std::vector<std::string> cmps;
    for (const goap::Comparison& x : c.comparisons())
        cmps.push_back(d.variable_name(x.var) + "#" + std::to_string(static_cast<int>(x.op)) + "#" + std::to_string(x.value));
    std::sort(cmps.begin(), cmps.end());
    for (const std::string& x : cmps) s += x + " ";
    return s;
}
std::string describe(const io::DomainFile& f) {
    std::ostringstream o;
    const goap::Domain& d = f.domain;
    for (std::uint32_t i = 0; i < d.atom_count(); ++i)
        o << "atom " << d.atom_name(goap::AtomId(i)) << (d.is_shared(goap::AtomId(i)) ? " shared" : "")
          << (f.start.get(goap::AtomId(i)) ? " start" : "") << "\n";
    for (std::uint32_t i = 0; i < d.variable_count(); ++i) {
        const goap::VarId v(i);
        o << "var " << d.variable_name(v) << " " << d.variable_min(v) << ".." << d.variable_max(v) << (d.is_shared(v) ? " shared" : "")
          << " start " << f.start.value(v);
        for (const std::string& x : d.variable_values(v)) o << " " << x;
        o << "\n";
    }
    for (std::uint32_t i = 0; i < d.action_count(); ++i) {
        const goap::ActionId a(i);
        char cost[64];
        std::snprintf(cost, sizeof cost, "%.17g", d.action_cost(a));
        o << "action " << d.action_name(a) << " " << cost << " pre " << literal_text(d, d.preconditions(a)) << "eff "
          << literal_text(d, d.effects(a));
        std::vector<std::string> effs;
        for (const goap::NumericEffect& e : d.numeric_effects(a))
            effs.push_back(d.variable_name(e.var) + "#" + std::to_string(static_cast<int>(e.op)) + "#" + std::to_string(e.value));
        std::sort(effs.begin(), effs.end());
        for (const std::string& x : effs) o << x << " ";
        o << "retry " << d.retry_policy(a).after_failures << "/" << d.retry_policy(a).cooldown_ticks << "\n";
    }
    if (f.goal) o << "goal " << literal_text(d, *f.goal) << "\n";
    for (const goap::Goal& g : f.goals) {
        o << "goal:" << g.name << " " << (g.priority_var.valid() ? 0.0 : g.priority) << " " << literal_text(d, g.condition)
          << "when " << literal_text(d, g.when) << "retry " << g.retry.after_failures << "/" << g.retry.cooldown_ticks;
        if (g.priority_var.valid()) o << " priority " << g.priority_scale << "*" << d.variable_name(g.priority_var) << "+" << g.priority_offset;
        o << "\n";
    }
    return o.str();
}

std::vector<std::filesystem::path> shipped_domains() {
    std::vector<std::filesystem::path> out;
    for (const auto& e : std::filesystem::recursive_directory_iterator(test::source_dir() / "examples/goap")) {
        if (e.path().extension() != ".json" || e.path().parent_path().filename() == "scenarios") continue;
        out.push_back(e.path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

double optimal_cost(const io::DomainFile& f, const goap::Condition& goal, goap::Direction dir) {
    goap::Planner planner(f.domain);
    goap::PlanOptions o;
    o.direction = dir;
    const goap::PlanResult r = planner.plan(f.start, goal, o);
    return r.status == Status::Found ? r.cost : -1.0;
}

// The line and character column of byte `at` of `text`, counted here independently of the loader:
// lines end at LF, columns count UTF-8 code points from 1.
std::pair<std::size_t, std::size_t> line_column(std::string_view text, std::size_t at) {
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < at; ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
            ++column;
        }
    }
    return {line, column};
}

// The error of loading `text`: its line, column and field (line 0 when there is no error).
struct ErrorAt {
    std::size_t line = 0, column = 0;
    std::string field, what;
};
ErrorAt error_at(std::string_view text) {
    try {
        (void)io::parse_domain_csv(text, "d.csv");
    } catch (const io::LoadError& e) {
        return {e.line(), e.column(), e.field(), e.what()};
    }
    return {};
}

}  // namespace

// ---- RFC 4180 ---------------------------------------------------------------------------------------

TEST(Csv, PlainFieldsAndLineEnds) {
    EXPECT_EQ(cells("a,b,c\nd,e,f\n"), (Rows{{"a", "b", "c"}, {"d", "e", "f"}}));
    EXPECT_EQ(cells("a,b\r\nc,d\r\n"), (Rows{{"a", "b"}, {"c", "d"}}));
    EXPECT_EQ(cells("a,b\rc,d"), (Rows{{"a", "b"}, {"c", "d"}}));  // lone CR, no final line break
    EXPECT_EQ(cells(""), Rows{});
    EXPECT_EQ(cells("\n"), (Rows{{""}}));
}

TEST(Csv, EmptyCells) {
    EXPECT_EQ(cells(",,\n"), (Rows{{"", "", ""}}));
    EXPECT_EQ(cells("a,,c\n,b,\n"), (Rows{{"a", "", "c"}, {"", "b", ""}}));
    EXPECT_EQ(cells("a,"), (Rows{{"a", ""}}));
    EXPECT_EQ(cells("\"\",x"), (Rows{{"", "x"}}));
}

TEST(Csv, QuotesDoubledQuotesAndEmbeddedNewlines) {
    EXPECT_EQ(cells("\"a,b\",c\n"), (Rows{{"a,b", "c"}}));
    EXPECT_EQ(cells("\"say \"\"hi\"\"\",x\n"), (Rows{{"say \"hi\"", "x"}}));
    EXPECT_EQ(cells("\"line1\nline2\",x\r\ny,z\r\n"), (Rows{{"line1\nline2", "x"}, {"y", "z"}}));
    EXPECT_EQ(cells("\"crlf\r\ninside\",x"), (Rows{{"crlf\r\ninside", "x"}}));
    // The line of a record is the line it starts on, embedded line breaks counted.
    const auto records = io::parse_csv("h\n\"a\nb\nc\",x\nlast\n", "t.csv");
    ASSERT_EQ(records.size(), 3u);
    EXPECT_EQ(records[0].line, 1u);
    EXPECT_EQ(records[1].line, 2u);
    EXPECT_EQ(records[2].line, 5u);
}

TEST(Csv, ByteOrderMark) {
    EXPECT_EQ(cells("\xEF\xBB\xBFname,cost\n"), (Rows{{"name", "cost"}}));
    EXPECT_EQ(cells("\xEF\xBB\xBF\"q\",x\n"), (Rows{{"q", "x"}}));
}

TEST(Csv, MalformedQuotesNameLineAndColumn) {
    EXPECT_EQ(csv_error("a,b\nc,\"open\n"), "t.csv:2:3: unterminated quoted field (no closing '\"' before the end of the file)");
    EXPECT_EQ(csv_error("a,b\nc,d\"e\n"), "t.csv:2:4: a quote inside an unquoted field (put the whole field in quotes and double the quote)");
    EXPECT_EQ(csv_error("x\n\"ab\"c,d\n"), "t.csv:2:5: text after the closing quote of a quoted field (write a quote inside one as \"\")");
}

TEST(Csv, LimitsAreErrorsNotMemory) {
    io::CsvLimits limits;
    limits.max_bytes = 10;
    EXPECT_NE(csv_error("aaaaaaaaaaaaaaaaaaaa", limits).find("too large"), std::string::npos);
    limits = {};
    limits.max_record_bytes = 8;
    EXPECT_EQ(csv_error("ok\n\"aaaaaaaaaaaaaaa\"\n", limits), "t.csv:2:1: row too long (more than 8 bytes)");
    EXPECT_EQ(csv_error("ok\naaaaaaaaaaaaaaa\n", limits), "t.csv:2:1: row too long (more than 8 bytes)");
    limits = {};
    limits.max_cells = 3;
    EXPECT_NE(csv_error("a,b,c,d\n", limits).find("too many cells"), std::string::npos);
    limits = {};
    limits.max_records = 2;
    EXPECT_NE(csv_error("a\nb\nc\n", limits).find("too many rows"), std::string::npos);
}

TEST(Csv, FieldWriterRoundTrips) {
    for (const std::string s : {"", "plain", "a,b", "say \"hi\"", "two\nlines", "\r\n", " padded ", "é ü 安全"}) {
        const std::string line = io::csv_field(s) + "," + io::csv_field(s) + "\r\n";
        EXPECT_EQ(cells(line), (Rows{{s, s}})) << s;
    }
    EXPECT_EQ(io::csv_field("plain"), "plain");
    EXPECT_EQ(io::csv_field("a,b"), "\"a,b\"");
}

// ---- cell items -------------------------------------------------------------------------------------

TEST(CsvItems, AtomsAndNegations) {
    std::vector<io::CsvItem> items;
    ASSERT_EQ(io::parse_csv_items("  has_food ; !hungry;;  ! tired ;", items), "");
    ASSERT_EQ(items.size(), 3u);
    EXPECT_EQ(items[0].kind, io::CsvItemKind::Atom);
    EXPECT_EQ(items[0].name, "has_food");
    EXPECT_TRUE(items[0].value);
    EXPECT_EQ(items[1].name, "hungry");
    EXPECT_FALSE(items[1].value);
    EXPECT_EQ(items[2].name, "tired");
    EXPECT_FALSE(items[2].value);
    items.clear();
    ASSERT_EQ(io::parse_csv_items("two words; a!b", items), "");
    EXPECT_EQ(items[0].name, "two words");
    EXPECT_EQ(items[1].name, "a!b");
}

TEST(CsvItems, NumericFormsParseToTheirParts) {
    struct Case {
        const char* text;
        io::CsvItemKind kind;
        const char* name;
        const char* op;
        const char* operand;
    };
    const Case cases[] = {
        {"ammo>=3", io::CsvItemKind::Comparison, "ammo", ">=", "3"},
        {"ammo <= 3", io::CsvItemKind::Comparison, "ammo", "<=", "3"},
        {"ammo>3", io::CsvItemKind::Comparison, "ammo", ">", "3"},
        {"ammo<3", io::CsvItemKind::Comparison, "ammo", "<", "3"},
        {"var==2", io::CsvItemKind::Comparison, "var", "==", "2"},
        {"var != forest", io::CsvItemKind::Comparison, "var", "!=", "forest"},
        {"var=10", io::CsvItemKind::Assignment, "var", "=", "10"},
        {"var+=2", io::CsvItemKind::Assignment, "var", "+=", "2"},
        {"var -= 1", io::CsvItemKind::Assignment, "var", "-=", "1"},
    };
    for (const Case& c : cases) {
        std::vector<io::CsvItem> items;
        ASSERT_EQ(io::parse_csv_items(c.text, items), "") << c.text;
        ASSERT_EQ(items.size(), 1u) << c.text;
        EXPECT_EQ(items[0].kind, c.kind) << c.text;
        EXPECT_EQ(items[0].name, c.name) << c.text;
        EXPECT_EQ(items[0].op, c.op) << c.text;
        EXPECT_EQ(items[0].operand, c.operand) << c.text;
    }
}

TEST(CsvItems, MalformedItems) {
    std::vector<io::CsvItem> items;
    EXPECT_EQ(io::parse_csv_items("a; !", items), "item '!' has no atom name after '!'");
    EXPECT_EQ(io::parse_csv_items(">=3", items), "item '>=3' has no variable name before '>='");
    EXPECT_EQ(io::parse_csv_items("ammo>=", items), "item 'ammo>=' has no value after '>='");
    EXPECT_EQ(io::parse_csv_items("a==b==c", items), "item 'a==b==c' has more than one operator (separate items with ';')");
}

// ---- domains ----------------------------------------------------------------------------------------

TEST(CsvDomain, TheDocumentedExample) {
    const io::DomainFile f = io::parse_domain_csv(
        "\xEF\xBB\xBF"
        "notes,Effects,name,cost,Preconditions,_comment\r\n"
        ",hungry; has_food; at_home,@atoms,,,\r\n"
        ",at_home,@shared,,,\r\n"
        "start here,hungry;at_home,@start,,,\r\n"
        ",,@goal,,!hungry,\r\n"
        ",,@goal:eat,2.5,!hungry; at_home,\r\n"
        "Eating,,,,,\r\n"
        "\"eats, then\nsleeps\",!hungry; !has_food,eat,5,has_food,whatever\r\n"
        ",has_food,buy,3,,\r\n"
        ",,,,,\r\n",
        "d.csv");
    const goap::Domain& d = f.domain;
    ASSERT_EQ(d.atom_count(), 3u);
    EXPECT_EQ(d.atom_name(goap::AtomId(0)), "hungry");
    EXPECT_EQ(d.atom_name(goap::AtomId(2)), "at_home");
    EXPECT_TRUE(d.is_shared(d.find_atom("at_home")));
    EXPECT_FALSE(d.is_shared(d.find_atom("hungry")));
    ASSERT_EQ(d.action_count(), 2u);
    EXPECT_EQ(d.action_name(goap::ActionId(0)), "eat");
    EXPECT_EQ(d.action_cost(goap::ActionId(0)), 5);
    EXPECT_EQ(literal_text(d, d.preconditions(goap::ActionId(0))), "+has_food ");
    EXPECT_EQ(literal_text(d, d.effects(goap::ActionId(0))), "-hungry -has_food ");
    EXPECT_TRUE(f.start.get(d.find_atom("hungry")));
    EXPECT_TRUE(f.start.get(d.find_atom("at_home")));
    EXPECT_FALSE(f.start.get(d.find_atom("has_food")));
    ASSERT_TRUE(f.goal.has_value());
    EXPECT_EQ(literal_text(d, *f.goal), "-hungry ");
    ASSERT_EQ(f.goals.size(), 1u);
    EXPECT_EQ(f.goals[0].name, "eat");
    EXPECT_EQ(f.goals[0].priority, 2.5);
    EXPECT_EQ(literal_text(d, f.goals[0].condition), "-hungry +at_home ");
    EXPECT_EQ(optimal_cost(f, *f.goal, goap::Direction::Backward), 8);
}

TEST(CsvDomain, WithoutAtomsRowAtomsAreInternedInFileOrder) {
    const io::DomainFile f = io::parse_domain_csv("name,cost,preconditions,effects\nb,1,x,y\n@start,,,z\n", "d.csv");
    ASSERT_EQ(f.domain.atom_count(), 3u);
    EXPECT_EQ(f.domain.atom_name(goap::AtomId(0)), "x");
    EXPECT_EQ(f.domain.atom_name(goap::AtomId(1)), "y");
    EXPECT_EQ(f.domain.atom_name(goap::AtomId(2)), "z");
    EXPECT_FALSE(f.goal.has_value());
}

TEST(CsvDomain, ErrorsNameFileRowAndColumn) {
    const std::string header = "name,cost,preconditions,effects\n";
    const std::string atoms = "@atoms,,,sees_player; target_hit; armed\n";
    // the issue's example, on line 7
    EXPECT_EQ(domain_error(header + atoms + "@start,,,armed\n\n\n\nattack,1,sees_playr,target_hit\n"),
              "actions.csv:7:10: preconditions: unknown atom 'sees_playr' (did you mean 'sees_player'?)");
    EXPECT_EQ(domain_error(header + atoms + "attack,1,sees_player,boom\n"),
              "actions.csv:3:22: effects: unknown atom 'boom' (not listed in @atoms on line 2)");
    EXPECT_EQ(domain_error(header + "attack,-1,,x\n"), "actions.csv:2:8: cost: must be a finite number >= 0 (found '-1')");
    EXPECT_EQ(domain_error(header + "attack,abc,,x\n"), "actions.csv:2:8: cost: must be a finite number >= 0 (found 'abc')");
    EXPECT_EQ(domain_error(header + "attack,,,x\n"), "actions.csv:2:8: cost: missing cost (a finite number >= 0)");
    EXPECT_EQ(domain_error(header + "a,1,,x\nb,1,,y\na,2,,z\n"), "actions.csv:4:1: name: duplicate action 'a' (also on line 2)");
    EXPECT_EQ(domain_error(header + "a,1,x;!x,y\n"), "actions.csv:2:7: preconditions: atom 'x' is listed both as true and as false");
    EXPECT_EQ(domain_error(header + "@begin,,,x\n"),
              "actions.csv:2:1: name: unknown row kind '@begin' (expected @atoms, @variable:NAME, @shared, @start, @goal or "
              "@goal:NAME; action names cannot start with '@')");
    EXPECT_EQ(domain_error(header + "@goal:g,high,x,\n"),
              "actions.csv:2:9: cost: a goal's priority must be a finite number or SCALE*VARIABLE+OFFSET (e.g. 1.5*hunger+2; found "
              "'high')");
    EXPECT_EQ(domain_error(header + "@goal:g,,x,\n@goal:g,,y,\n"), "actions.csv:3:1: name: duplicate goal 'g' (also on line 2)");
    EXPECT_EQ(domain_error(header + "@start,,x,\n"), "actions.csv:2:9: preconditions: must be empty for @start (found 'x')");
    EXPECT_EQ(domain_error(header + ",1,x,y\n"), "actions.csv:2:1: name: missing action name (the row has other cells filled)");
    EXPECT_EQ(domain_error(header + "a,1,,x,extra\n"),
              "actions.csv:2:8: the row has 5 cells but the header names only 4 columns (cell 5 is 'extra')");
    EXPECT_EQ(domain_error(""), "actions.csv:1:1: file is empty (expected a header row: name,cost,preconditions,effects)");
    EXPECT_EQ(domain_error("name,cost,effects\n"),
              "actions.csv:1:1: header: missing column 'preconditions' (the header row names the columns name, cost, "
              "preconditions, effects)");
    EXPECT_EQ(domain_error("name,cost,precondition,effects\n"),
              "actions.csv:1:11: header: unknown column 'precondition' (did you mean 'preconditions'?); the columns are "
              "name, cost, preconditions, effects, optionally when and retry, and columns named 'notes' or starting with '_' are ignored");
    EXPECT_EQ(domain_error("name,cost,preconditions,effects,cost\n"), "actions.csv:1:33: header: duplicate column 'cost'");
    EXPECT_EQ(domain_error(header + "a,1,\"x\"y,z\n"),
              "actions.csv:2:8: text after the closing quote of a quoted field (write a quote inside one as \"\")");
    EXPECT_EQ(domain_error("name,cost,preconditions,effects\na,1,\xff,x\n"),
              "actions.csv:2:5: invalid UTF-8 (byte 0xFF; save the file as UTF-8)");
}

// Every error names the line and character column of the offending text: the item (or its value)
// inside a condition, effect or retry cell, else the cell's first character as written. The expected
// place is found here by locating a marker in the input, so quotes, doubled quotes, commas and line
// breaks inside quoted cells, and multi-byte characters before the cell all have to be counted.
TEST(CsvDomain, ErrorsPointAtTheLineAndCharacterColumn) {
    const std::string header = "name,cost,preconditions,effects,when,retry\n";
    const std::string vars = header + "@atoms,,,armed; sees_player; x\n@variable:ammo,,,0..10\n@variable:place,,,home|forest\n";
    struct Case {
        std::string text;
        std::string marker;  // the offending text (its first occurrence)
        std::string field;
    };
    const std::vector<Case> cases = {
        // an unknown atom in the middle of a cell, after a quoted name with an embedded comma and quotes
        {vars + "\"say \"\"hi\"\", ok\",1,armed;  sees_playr ; x,x,,\n", "sees_playr", "preconditions"},
        // a value out of bounds inside a quoted cell that holds commas and a doubled quote
        {vars + "shoot,1,\"armed; ammo>=7 ; ammo<=\"\"\",x,,\n", "\"\"\",x", "preconditions"},
        {vars + "\"shoot, again\",1,\"armed; x; ammo>=11\",x,,\n", "11", "preconditions"},
        // a line break inside the quoted cell: the error is on the next physical line
        {vars + "shoot,1,\"armed;\n   ammo>=99\",x,,\n", "99", "preconditions"},
        // a row after a multi-line cell of an earlier row
        {vars + "a,1,\"x;\nx\",armed,,\nb, 2 ,x,bogus_atom,,\n", "bogus_atom", "effects"},
        // numeric cells: the cost (blank-padded), a missing cost after a quoted name
        {vars + "shoot,  abc ,x,armed,,\n", "abc", "cost"},
        {vars + "\"a,b\",,x,armed,,\n", ",x,armed", "cost"},  // the empty cell's first character is the comma after it
        // multi-byte characters before the cell count one column each
        {vars + "\"caf\xC3\xA9 \xE5\xAE\x89\",1,x,ammo+=2;place=forrest,,\n", "forrest", "effects"},
        {vars + "shoot,1,,ammo-=1;ammo=3,,\n", "ammo=3", "effects"},
        {vars + "shoot,1,x>=1,armed,,\n", "x>=1", "preconditions"},
        {vars + "go,1,place>=home,armed,,\n", ">=home", "preconditions"},
        {vars + "go,1,x,ammo+=1.5,,\n", "1.5", "effects"},
        {vars + "go,1,x,armed; amo+=1,,\n", "amo+=1", "effects"},
        {vars + "go,1,ammo>=1>=2,armed,,\n", ">=2", "preconditions"},
        {vars + "go,1,x,armed,,after_failures=2; cooldown_ticks=soon\n", "soon", "retry"},
        {vars + "go,1,x,armed,,  after_failure=2\n", "after_failure=2", "retry"},
        {vars + "@goal:g,2*amo+1,ammo>=1,,,\n", "amo+1", "cost"},
        {vars + "@goal:g,,x,,\"armed; plac==home\",\n", "plac==", "when"},
        {vars + "go,1,x,armed,ammo>=1,\n", "ammo>=1,\n", "when"},
        {header + "@variable:hp,,,0..zz\n", "zz", "effects"},
        {header + "@variable:p,,,a| b |  b\n", "b\n", "effects"},
        {vars + "@atoms,,,y\n", "@atoms,,,y", "name"},
        {vars + "@start,,,x; ammo+=1\n", "ammo+=1", "effects"},
        {vars + "go\n", "go\n", "cost"},  // the cost cell is missing: where the row ends
        {"name,cost,precondition,effects\n", "precondition,", "header"},
    };
    for (const Case& c : cases) {
        const ErrorAt e = error_at(c.text);
        ASSERT_NE(e.line, 0u) << c.text;
        std::size_t at = c.text.find(c.marker);
        ASSERT_NE(at, std::string::npos) << c.marker;
        if (c.marker == "go\n") at += 2;
        const auto [line, column] = line_column(c.text, at);
        EXPECT_EQ(e.line, line) << e.what;
        EXPECT_EQ(e.column, column) << e.what;
        EXPECT_EQ(e.field, c.field) << e.what;
        // what() carries the same place
        EXPECT_NE(e.what.find("d.csv:" + std::to_string(line) + ":" + std::to_string(column) + ": "), std::string::npos) << e.what;
    }    // A byte order mark is not a character of the first line.
    const ErrorAt bom = error_at("\xEF\xBB\xBFname,cost,precondition,effects\n");
    EXPECT_EQ(bom.line, 1u);
    EXPECT_EQ(bom.column, 11u);
    // Lone CR line ends count as line breaks, as the CSV reader counts them.
    const ErrorAt cr = error_at("name,cost,preconditions,effects\r@atoms,,,a\rgo,1,b,a\r");
    EXPECT_EQ(cr.line, 3u);
    EXPECT_EQ(cr.column, 6u);
}

TEST(CsvDomain, NumericItemsGetAPreciseError) {
    const std::string header = "name,cost,preconditions,effects\n";
    EXPECT_EQ(domain_error(header + "shoot,1,ammo>=3,target_hit\n"),
              "actions.csv:2:9: preconditions: numeric item 'ammo>=3' needs a variable 'ammo': declare it in a row "
              "'@variable:ammo' with its range (e.g. 0..10) or values (e.g. home|forest) in the effects cell; a boolean "
              "item is 'atom' or '!atom'");
    const std::string vars = header + "@variable:ammo,,,0..10\n@variable:place,,,home|forest\n";
    EXPECT_EQ(domain_error(vars + "reload,1,,amo+=2\n"), "actions.csv:4:11: effects: unknown variable 'amo' in 'amo+=2' (did you mean 'ammo'?)");
    EXPECT_EQ(domain_error(vars + "go,1,place=forest,x\n"),
              "actions.csv:4:11: preconditions: '=' in 'place=forest' assigns: a condition compares with ==, !=, <, <=, > or >=");
    EXPECT_EQ(domain_error(vars + "go,1,,place!=forest\n"),
              "actions.csv:4:12: effects: '!=' in 'place!=forest' compares: an effect assigns with =, += or -=");
    EXPECT_EQ(domain_error(vars + "go,1,,place=forrest\n"),
              "actions.csv:4:13: effects: 'forrest' is not a value of 'place' (did you mean 'forest'?); its values: home, forest");
    EXPECT_EQ(domain_error(vars + "go,1,place>=home,x\n"),
              "actions.csv:4:11: preconditions: 'place' is an enumerated variable: only == and != compare it (found 'place>=home')");
    EXPECT_EQ(domain_error(vars + "go,1,,place+=1\n"),
              "actions.csv:4:12: effects: 'place' is an enumerated variable: only = sets it (found 'place+=1')");
    EXPECT_EQ(domain_error(vars + "shoot,1,ammo>=11,x\n"),
              "actions.csv:4:15: preconditions: value 11 in 'ammo>=11' is outside the bounds 0..10 of 'ammo'");
    EXPECT_EQ(domain_error(vars + "shoot,1,ammo>=1.5,x\n"),
              "actions.csv:4:15: preconditions: '1.5' in 'ammo>=1.5' is not an integer ('ammo' is an integer variable)");
    EXPECT_EQ(domain_error(vars + "shoot,1,,ammo-=-1\n"),
              "actions.csv:4:16: effects: the amount in 'ammo-=-1' must be an integer >= 0 (use '+=' to go the other way)");
    EXPECT_EQ(domain_error(vars + "shoot,1,,ammo+=1; ammo=3\n"), "actions.csv:4:19: effects: variable 'ammo' is changed twice");
    EXPECT_EQ(domain_error(vars + "shoot,1,ammo,x\n"),
              "actions.csv:4:9: preconditions: 'ammo' is a variable: compare it, e.g. 'ammo>=1' (found 'ammo')");
    EXPECT_EQ(domain_error(vars + "shoot,1,x,\nt,1,x>=1,\n"),
              "actions.csv:5:5: preconditions: 'x' is an atom, not a variable: write 'x' or '!x' (found 'x>=1')");
    EXPECT_EQ(domain_error(header + "@variable:ammo,,,10..0\n"), "actions.csv:2:18: effects: max (0) is less than min (10) for variable 'ammo'");
    EXPECT_EQ(domain_error(header + "@variable:ammo,,,0..x\n"),
              "actions.csv:2:21: effects: range '0..x' of variable 'ammo' must be MIN..MAX with two integers in the 32-bit range, e.g. 0..10");
    EXPECT_EQ(domain_error(header + "@variable:ammo,,,10\n"),
              "actions.csv:2:18: effects: '10' is a single number: an integer variable is written MIN..MAX (e.g. 0..10)");
    EXPECT_EQ(domain_error(header + "@variable:p,,,a|b|a\n"), "actions.csv:2:19: effects: duplicate value 'a' of variable 'p'");
    EXPECT_EQ(domain_error(header + "@variable:ammo,,,0..3\n@variable:ammo,,,0..3\n"), "actions.csv:3:11: name: duplicate variable 'ammo'");
    EXPECT_EQ(domain_error(vars + "@start,,,ammo+=1\n"), "actions.csv:4:10: effects: @start gives values: write 'var=value' (found '+=' or '-=' on 'ammo')");
    EXPECT_EQ(domain_error(vars + "@goal:g,2*amo+1,ammo>=1,\n"), "actions.csv:4:11: cost: unknown variable 'amo' in the priority '2*amo+1' (did you mean 'ammo'?)");
    EXPECT_EQ(domain_error(vars + "@goal:g,2*place,ammo>=1,\n"), "actions.csv:4:11: cost: 'place' is an enumerated variable, not a number");
    const std::string extra = "name,cost,preconditions,effects,when,retry\n@variable:ammo,,,0..10\n";
    EXPECT_EQ(domain_error(extra + "shoot,1,,ammo-=1,,after_failure=3\n"),
              "actions.csv:3:19: retry: expected 'on' or 'after_failures=N; cooldown_ticks=T' with integers >= 0 (found 'after_failure=3')");
    EXPECT_EQ(domain_error(extra + "shoot,1,,ammo-=1,ammo>=1,\n"),
              "actions.csv:3:18: when: must be empty for an action (a condition of when it applies is a precondition) (found 'ammo>=1')");
}

TEST(CsvDomain, NumbersChoicesConditionalGoalsAndBackOff) {
    // The issue's guard-and-woodcutter example, as a spreadsheet.
    const std::string csv =
        "name,cost,preconditions,effects,when,retry,notes\n"
        "@variable:ammo,,,0..10,,,integer with bounds\n"
        "@variable:wood,,,0..20,,,\n"
        "@variable:hunger,,,-5..5,,,\n"
        "@variable:location,,,home|forest|store,,,an enumeration\n"
        "@start,,,ammo=3; location=home; armed; hunger=-2,,,\n"
        "@goal,,wood>=5; target_hit,,,,\n"
        "@goal:attack,5,target_hit,,sees_player,on,\n"
        "@goal:eat,1.5*hunger-2,hunger<=0,,,after_failures=2; cooldown_ticks=7,\n"
        "shoot,1,ammo>=1; armed,ammo-=1; target_hit,,after_failures=4,\n"
        "reload,2,,ammo=10,,,\n"
        "walk_to_forest,4,location!=forest,location=forest,,,\n"
        "chop,3,location==forest,wood+=2,,,\n"
        "spot,1,,sees_player,,,\n"
        "eat,1,hunger>-5,hunger-=1,,,\n";
    const io::DomainFile f = io::parse_domain_csv(csv, "guard.csv");
    const goap::Domain& d = f.domain;
    ASSERT_EQ(d.variable_count(), 4u);
    const goap::VarId ammo = d.find_variable("ammo"), wood = d.find_variable("wood"), hunger = d.find_variable("hunger"),
                      location = d.find_variable("location");
    EXPECT_EQ(d.variable_min(hunger), -5);
    EXPECT_EQ(d.variable_max(wood), 20);
    EXPECT_EQ(d.variable_kind(location), goap::VariableKind::Enumeration);
    EXPECT_EQ(f.start.value(ammo), 3);
    EXPECT_EQ(f.start.value(wood), 0);  // not in @start: its min
    EXPECT_EQ(f.start.value(hunger), -2);
    EXPECT_EQ(f.start.value(location), 0);
    const goap::ActionId shoot = d.find_action("shoot"), chop = d.find_action("chop");
    EXPECT_EQ(d.retry_policy(shoot), (goap::RetryPolicy{4, 60}));
    EXPECT_EQ(d.retry_policy(chop), goap::RetryPolicy{});
    ASSERT_EQ(d.numeric_effects(chop).size(), 1u);
    EXPECT_EQ(d.numeric_effects(chop)[0], (goap::NumericEffect{wood, goap::EffectOp::Add, 2}));
    ASSERT_EQ(f.goals.size(), 2u);
    EXPECT_EQ(f.goals[0].retry, goap::kDefaultRetry);
    EXPECT_TRUE(f.goals[0].when.cares(d.find_atom("sees_player")));
    EXPECT_EQ(f.goals[1].priority_var, hunger);
    EXPECT_EQ(f.goals[1].priority_scale, 1.5);
    EXPECT_EQ(f.goals[1].priority_offset, -2);
    EXPECT_EQ(f.goals[1].retry, (goap::RetryPolicy{2, 7}));
    // The same domain written by hand in JSON: equal by names.
    const io::DomainFile json = io::parse_domain_json(R"({
      "atoms": ["armed", "target_hit", "sees_player"],
      "variables": {"ammo": {"max": 10}, "wood": {"max": 20}, "hunger": {"min": -5, "max": 5},
                    "location": {"values": ["home", "forest", "store"]}},
      "actions": [
        {"name": "shoot", "cost": 1, "preconditions": {"ammo": [">=", 1], "armed": true},
         "effects": {"ammo": ["-", 1], "target_hit": true}, "retry": {"after_failures": 4}},
        {"name": "reload", "cost": 2, "effects": {"ammo": ["=", 10]}},
        {"name": "walk_to_forest", "cost": 4, "preconditions": {"location": ["!=", "forest"]}, "effects": {"location": ["=", "forest"]}},
        {"name": "chop", "cost": 3, "preconditions": {"location": ["==", "forest"]}, "effects": {"wood": ["+", 2]}},
        {"name": "spot", "cost": 1, "effects": {"sees_player": true}},
        {"name": "eat", "cost": 1, "preconditions": {"hunger": [">", -5]}, "effects": {"hunger": ["-", 1]}}
      ],
      "start": {"ammo": 3, "location": "home", "armed": true, "hunger": -2},
      "goal": {"wood": [">=", 5], "target_hit": true},
      "goals": {"attack": {"conditions": {"target_hit": true}, "when": {"sees_player": true}, "priority": 5, "retry": {}},
                "eat": {"conditions": {"hunger": ["<=", 0]}, "priority": {"variable": "hunger", "scale": 1.5, "offset": -2},
                        "retry": {"after_failures": 2, "cooldown_ticks": 7}}}
    })", "guard.json");
    EXPECT_EQ(describe(f), describe(json));
    // Lossless both ways, and the same optimal plan cost as the JSON: walk (4) + 3 chops (9) + shoot (1) = 14.
    const std::string written = io::write_domain_csv(f);
    EXPECT_EQ(describe(io::parse_domain_csv(written, "w.csv")), describe(f));
    EXPECT_EQ(io::write_domain_csv(io::parse_domain_csv(written, "w.csv")), written);
    EXPECT_EQ(describe(io::parse_domain_json(io::write_domain_json(f), "w.json")), describe(f));
    EXPECT_EQ(optimal_cost(f, *f.goal, goap::Direction::Forward), 14.0);
    EXPECT_EQ(optimal_cost(json, *json.goal, goap::Direction::Forward), 14.0);
}

TEST(CsvDomain, WriterRefusesNamesTheSyntaxCannotHold) {
    for (const char* bad : {"a;b", "x=1", "!not", " padded"}) {
        goap::DomainBuilder b;
        b.add_atom(bad);
        io::DomainFile f;
        f.domain = b.build();
        f.start = f.domain.make_state();
        EXPECT_THROW((void)io::write_domain_csv(f), std::invalid_argument) << bad;
    }
}

TEST(CsvDomain, StrangeButLegalNamesRoundTrip) {
    const io::DomainFile f = io::parse_domain_json(
        R"({"atoms": ["a,b", "say \"hi\"", "安全区内", "two words"], "shared": ["a,b"],
            "actions": [{"name": "x, \"quoted\"\nnewline", "cost": 0.1, "preconditions": {"a,b": true, "安全区内": false},
                         "effects": {"say \"hi\"": true}}],
            "start": {"two words": true}, "goals": {"g:1": {"conditions": {"say \"hi\"": true}, "priority": -3.25}}})");
    const std::string csv = io::write_domain_csv(f);
    const io::DomainFile back = io::parse_domain_csv(csv, "w.csv");
    EXPECT_EQ(describe(back), describe(f));
    EXPECT_EQ(io::write_domain_csv(back), csv);
    EXPECT_EQ(describe(io::parse_domain_json(io::write_domain_json(back))), describe(f));
}

TEST(CsvDomain, FormatIsChosenByExtensionThenContent) {
    EXPECT_EQ(io::domain_format_of("a.CSV", "{"), io::DomainFormat::Csv);
    EXPECT_EQ(io::domain_format_of("a.json", "name,cost"), io::DomainFormat::Json);
    EXPECT_EQ(io::domain_format_of("-", "\xEF\xBB\xBF  \n {\"actions\": []}"), io::DomainFormat::Json);
    EXPECT_EQ(io::domain_format_of("-", "name,cost,preconditions,effects"), io::DomainFormat::Csv);
}

// ---- every domain we have ---------------------------------------------------------------------------

TEST(CsvConversion, ShippedDomainsRoundTripAndPlanTheSame) {
    const auto files = shipped_domains();
    ASSERT_GE(files.size(), 5u);
    for (const auto& path : files) {
        SCOPED_TRACE(path.string());
        const io::DomainFile json = io::load_domain_json(path);
        const std::string csv = io::write_domain_csv(json);
        const io::DomainFile from_csv = io::parse_domain_csv(csv, "converted.csv");
        EXPECT_EQ(describe(from_csv), describe(json));
        EXPECT_EQ(io::write_domain_csv(from_csv), csv);  // CSV -> domain -> CSV: same text
        const io::DomainFile again = io::parse_domain_json(io::write_domain_json(from_csv), "back.json");
        EXPECT_EQ(describe(again), describe(json));
        std::vector<const goap::Condition*> goals;
        if (json.goal) goals.push_back(&*json.goal);
        for (const goap::Goal& g : json.goals) goals.push_back(&g.condition);
        ASSERT_FALSE(goals.empty());
        for (std::size_t i = 0; i < goals.size(); ++i) {
            const goap::Condition& csv_goal = i == 0 && json.goal ? *from_csv.goal : from_csv.goals[i - (json.goal ? 1 : 0)].condition;
            for (const goap::Direction dir : {goap::Direction::Forward, goap::Direction::Backward})
                EXPECT_EQ(optimal_cost(from_csv, csv_goal, dir), optimal_cost(json, *goals[i], dir)) << "goal " << i;
        }
    }
}

TEST(CsvConversion, BenchmarkDomainsPlanToTheirPublishedOptimum) {
    GAMEPLAN_REQUIRE_BENCHMARK_DATA();
    // The optimal costs published with the benchmark domains ("| file | atoms | actions | cost |").
    std::ifstream in(test::benchmark_dir() / "goap" / "README.md");
    std::map<std::string, double> costs;
    for (std::string line; std::getline(in, line);) {
        std::vector<std::string> c;
        std::stringstream row(line);
        for (std::string cell; std::getline(row, cell, '|');) {
            const auto b = cell.find_first_not_of(' '), e = cell.find_last_not_of(' ');
            c.push_back(b == std::string::npos ? std::string() : cell.substr(b, e - b + 1));
        }
        if (c.size() >= 5 && c[1].size() > 5 && c[1].substr(c[1].size() - 5) == ".json") costs[c[1]] = std::stod(c[4]);
    }
    ASSERT_GE(costs.size(), 12u);
    for (const auto& [file, expected] : costs) {
        SCOPED_TRACE(file);
        const io::DomainFile json = io::load_domain_json(test::benchmark_dir() / "goap" / file);
        const io::DomainFile csv = io::parse_domain_csv(io::write_domain_csv(json), file + ".csv");
        EXPECT_EQ(describe(csv), describe(json));
        ASSERT_TRUE(csv.goal.has_value());
        EXPECT_EQ(optimal_cost(csv, *csv.goal, goap::Direction::Backward), expected);
        EXPECT_EQ(optimal_cost(csv, *csv.goal, goap::Direction::Forward), expected);
    }
}

TEST(CsvConversion, LoadDomainReadsCsvFilesByExtension) {
    const auto dir = std::filesystem::temp_directory_path() / "gameplan_domain_csv_test";
    std::filesystem::create_directories(dir);
    const io::DomainFile json = io::load_domain_json(test::source_dir() / "examples/goap/space_shooter.json");
    {
        std::ofstream(dir / "shooter.csv", std::ios::binary) << io::write_domain_csv(json);
        std::ofstream(dir / "shooter.txt", std::ios::binary) << io::write_domain_json(json);
    }
    EXPECT_EQ(describe(io::load_domain(dir / "shooter.csv")), describe(json));
    EXPECT_EQ(describe(io::load_domain(dir / "shooter.txt")), describe(json));  // by content
    try {
        (void)io::load_domain(dir / "missing.csv");
        ADD_FAILURE() << "no error";
    } catch (const io::LoadError& e) {
        EXPECT_NE(std::string(e.what()).find("missing.csv: cannot open file: no such file"), std::string::npos);
    }
    std::filesystem::remove_all(dir);
}

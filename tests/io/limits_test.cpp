// Hostile input for the loaders: nesting, endless streams, huge objects, memory amplification, costs
// that could overflow, and messages that must stay short and terminal-safe. Every input is generated
// here, small enough to run in well under a second (also under ASan/UBSan).
//
// This file deliberately includes no <gameplan/io/load_error.hpp>: catching io::LoadError must work with
// the loader headers alone.
#include <gameplan/goap/agent_scenario.hpp>
#include <gameplan/io/domain_csv.hpp>
#include <gameplan/io/domain_json.hpp>
#include <gameplan/io/graph_io.hpp>
#include <gameplan/io/lint.hpp>
#include <gameplan/io/movingai.hpp>
#include <gameplan/io/save.hpp>
#include <gameplan/io/scenario_json.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gameplan::io {
namespace {

// The error a domain text gives (fails the test when it loads).
LoadError domain_error(const std::string& text, const JsonLimits& limits = {}) {
    try {
        (void)parse_domain_json(text, "d.json", limits);
    } catch (const LoadError& e) {
        return e;
    }
    ADD_FAILURE() << "no error for:\n" << text.substr(0, 300);
    return LoadError("", 0, 0, "", "");
}

LoadError scenario_error(const std::string& text, const JsonLimits& limits = {}) {
    ScenarioParseOptions options;
    options.allow_domain_files = false;
    options.limits = limits;
    try {
        (void)parse_scenario_json(text, "s.json", options);
    } catch (const LoadError& e) {
        return e;
    }
    ADD_FAILURE() << "no error for:\n" << text.substr(0, 300);
    return LoadError("", 0, 0, "", "");
}

template <class Fn>
LoadError error_of(Fn&& fn) {
    try {
        fn();
    } catch (const LoadError& e) {
        return e;
    }
    ADD_FAILURE() << "no error";
    return LoadError("", 0, 0, "", "");
}

bool contains(const std::string& s, std::string_view part) { return s.find(part) != std::string::npos; }

// Offset of the n-th (1-based) occurrence of `c` in `s`.
std::size_t nth_of(std::string_view s, char c, std::size_t n) {
    std::size_t at = std::string_view::npos;
    for (std::size_t k = 0; k < n; ++k) at = s.find(c, at + 1);
    return at;
}

std::string nested(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

const std::string kSmallDomain = R"({"actions": [{"name": "a", "cost": 1, "effects": {"x": true}}], "goal": {"x": true}})";

// ---- nesting ------------------------------------------------------------------------------------

TEST(InputLimits, DeepNestingIsRefusedAtTheFirstBracketPastTheLimit) {
    // 106,000 levels crashed the CLI (recursive copy); any depth past the limit must end in a LoadError.
    for (const std::size_t depth : {std::size_t{257}, std::size_t{106000}}) {
        const std::string text = R"({"actions": [{"name": "a", "cost": 1, "_comment": )" + nested(depth) + "}]}";
        const LoadError e = domain_error(text);
        // The document is level 1, "actions" 2, the action 3: the 254th '[' of the comment opens level 257.
        const std::size_t bracket = nth_of(text, '[', 1 + (kDefaultMaxJsonDepth + 1 - 3));
        EXPECT_EQ(e.line(), 1u) << e.what();
        EXPECT_EQ(e.column(), bracket + 1) << e.what();
        EXPECT_TRUE(contains(e.message(), "nested deeper than 256 levels")) << e.what();
        EXPECT_EQ(e.field().rfind("actions[0]._comment[0]", 0), 0u) << e.what();
        EXPECT_LT(std::string(e.what()).size(), 400u) << "a deep path is shortened";
    }
    // Exactly at the limit loads.
    const std::string ok = R"({"actions": [{"name": "a", "cost": 1, "_comment": )" + nested(kDefaultMaxJsonDepth - 3) + "}]}";
    EXPECT_NO_THROW((void)parse_domain_json(ok, "d.json"));
}

TEST(InputLimits, NestingLimitIsAnOptionAndCapped) {
    const std::string text = R"({"actions": [{"name": "a", "cost": 1, "_c": )" + nested(400) + "}]}";
    EXPECT_TRUE(contains(domain_error(text).message(), "256 levels"));
    JsonLimits deeper;
    deeper.max_depth = 500;
    EXPECT_NO_THROW((void)parse_domain_json(text, "d.json", deeper));
    JsonLimits silly;
    silly.max_depth = 1000000;  // clamped to kMaxJsonDepthCap
    const std::string deep = R"({"actions": [{"name": "a", "cost": 1, "_c": )" + nested(kMaxJsonDepthCap + 10) + "}]}";
    EXPECT_TRUE(contains(domain_error(deep, silly).message(), "10000 levels"));
}

TEST(InputLimits, DuplicateKeyAfterADeepCommentIsFoundAndPositioned) {
    // The scanners used to stop at depth 10,000: the duplicate "cost" passed silently. Within the nesting
    // limit they see the whole document; past it the document is refused before anything else.
    const std::string head = R"({"actions": [{"name": "a", "cost": 1, "_c": )" + nested(200) + ",\n";
    const LoadError dup = domain_error(head + R"("cost": 5}], "goal": {"x": true}})");
    EXPECT_EQ(dup.line(), 2u) << dup.what();
    EXPECT_EQ(dup.column(), 1u) << dup.what();
    EXPECT_EQ(dup.field(), "actions[0].cost");
    EXPECT_TRUE(contains(dup.message(), "duplicate key"));
    // A schema error after the deep comment is positioned too (it used to be reported at 1:1).
    const LoadError bad = domain_error(head + R"(  "effects": {"x": 3}}], "goal": {"x": true}})");
    EXPECT_EQ(bad.line(), 2u) << bad.what();
    EXPECT_EQ(bad.column(), 15u) << bad.what();
    EXPECT_EQ(bad.field(), "actions[0].effects.x");
    JsonLimits deeper;
    deeper.max_depth = 20000;  // capped at 10,000: the scanners never give up inside an accepted document
    const std::string deep = R"({"actions": [{"name": "a", "cost": 1, "_c": )" + nested(10500) + R"(, "cost": 5}]})";
    EXPECT_TRUE(contains(domain_error(deep, deeper).message(), "nested deeper than 10000"));
}

TEST(InputLimits, ScenarioNestingIncludingInlineDomains) {
    const std::string plain = R"({"_c": )" + nested(50000) + R"(, "domain": {}})";
    const LoadError e = scenario_error(plain);
    EXPECT_EQ(e.column(), nth_of(plain, '[', 256) + 1) << e.what();
    EXPECT_TRUE(contains(e.message(), "nested deeper than 256")) << e.what();
    // An inline domain nested past the limit used to be refused as "cannot locate the inline domain".
    const std::string inline_domain = R"({"domain": {"actions": [{"name": "a", "cost": 1, "_c": )" + nested(20000) +
                                      R"(}]}, "types": {}, "agents": []})";
    const LoadError d = scenario_error(inline_domain);
    EXPECT_TRUE(contains(d.message(), "nested deeper than 256")) << d.what();
    EXPECT_EQ(d.field().rfind("domain.actions[0]._c[0]", 0), 0u) << d.what();
    // Levels: document 1, "domain" 2, "actions" 3, the action 4: the 253rd '[' of "_c" opens level 257.
    EXPECT_EQ(d.column(), nth_of(inline_domain, '[', 1 + 253) + 1) << d.what();
}

// ---- size and streams -----------------------------------------------------------------------------

TEST(InputLimits, DevicesAndDirectoriesAreRefusedByName) {
    for (const char* device : {"/dev/zero", "/dev/null"}) {
        const LoadError d = error_of([&] { (void)load_domain_json(device); });
        EXPECT_TRUE(contains(d.message(), "is a device, not a domain file")) << d.what();
        EXPECT_EQ(d.file(), device);
        EXPECT_TRUE(contains(error_of([&] { (void)load_scenario_json(device); }).message(), "is a device"));
        EXPECT_TRUE(contains(error_of([&] { (void)load_grid_map(device); }).message(), "is a device"));
        EXPECT_TRUE(contains(error_of([&] { (void)load_movingai_scenarios(device); }).message(), "is a device"));
    }
    const auto dir = std::filesystem::temp_directory_path();
    EXPECT_TRUE(contains(error_of([&] { (void)load_domain_json(dir); }).message(), "is a directory"));
    EXPECT_TRUE(contains(error_of([&] { (void)load_scenario_json(dir); }).message(), "is a directory"));
}

TEST(InputLimits, EndlessPipeStopsAtTheLimit) {
    std::signal(SIGPIPE, SIG_IGN);
    const auto fifo = std::filesystem::temp_directory_path() / ("gameplan_limits_fifo_" + std::to_string(::getpid()));
    std::filesystem::remove(fifo);
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::atomic<std::uint64_t> written{0};
    // A writer that never ends on its own: it stops when the reader closes the pipe (EPIPE).
    std::thread writer([&] {
        const int fd = ::open(fifo.c_str(), O_WRONLY);
        if (fd < 0) return;
        const std::string chunk(4096, ' ');
        for (;;) {
            const ::ssize_t n = ::write(fd, chunk.data(), chunk.size());
            if (n <= 0) break;
            written += static_cast<std::uint64_t>(n);
        }
        ::close(fd);
    });
    JsonLimits limits;
    limits.max_bytes = 1 << 20;
    const LoadError e = error_of([&] { (void)load_domain_json(fifo, limits); });
    writer.join();
    std::filesystem::remove(fifo);
    EXPECT_TRUE(contains(e.message(), "larger than the limit of 1.0 MiB (1048576 bytes) for a domain file")) << e.what();
    EXPECT_GT(written.load(), limits.max_bytes);
    EXPECT_LT(written.load(), 4u * limits.max_bytes) << "the reader stopped right after the limit";
}

TEST(InputLimits, FilesOverTheLimitAreRefusedForEveryFormat) {
    const auto file = std::filesystem::temp_directory_path() / ("gameplan_limits_big_" + std::to_string(::getpid()));
    {
        std::ofstream out(file, std::ios::binary);
        out << kSmallDomain << std::string(3000, ' ');
    }
    JsonLimits limits;
    limits.max_bytes = 2048;
    EXPECT_TRUE(contains(error_of([&] { (void)load_domain_json(file, limits); }).message(), "larger than the limit of 2.0 KiB"));
    EXPECT_TRUE(contains(error_of([&] { (void)load_scenario_json(file, limits); }).message(), "for a scenario file"));
    EXPECT_TRUE(contains(domain_error(kSmallDomain + std::string(3000, ' '), limits).message(), "larger than the limit"));
    limits.max_bytes = 4096;
    EXPECT_NO_THROW((void)load_domain_json(file, limits));
    MapLoadOptions map;
    map.max_bytes = 100;
    EXPECT_TRUE(contains(error_of([&] { (void)load_grid_map(file, map); }).message(), "for a map file"));
    EXPECT_TRUE(contains(error_of([&] { (void)load_movingai_scenarios(file, 100); }).message(), "for a scenario file"));
    std::filesystem::remove(file);
}

TEST(InputLimits, MapAndScenLineCountsAreBounded) {
    // Each line costs a table entry: a file of line breaks must not amplify into gigabytes.
    const std::string map = "type octile\nheight 1\nwidth 1\nmap\n.\n" + std::string(kMaxMapLines, '\n');
    const LoadError e = error_of([&] { (void)parse_movingai_map(map, "m.map"); });
    EXPECT_EQ(e.line(), kMaxMapLines + 1) << e.what();
    EXPECT_TRUE(contains(e.message(), "more than 100000 lines")) << e.what();
    EXPECT_NO_THROW((void)parse_movingai_map("type octile\nheight 1\nwidth 1\nmap\n.\n" + std::string(1000, '\n'), "m.map"));
    const LoadError s = error_of([&] { (void)parse_movingai_scenarios("version 1\n" + std::string(kMaxScenLines, '\n'), "s.scen"); });
    EXPECT_EQ(s.line(), kMaxScenLines + 1) << s.what();
}

// ---- many keys ----------------------------------------------------------------------------------

TEST(InputLimits, HugeObjectsKeepFileOrderAndFindDuplicates) {
    // 60,000 atoms in one object (building it used to be quadratic): first use interns in file order.
    constexpr std::size_t n = 60000;
    std::string effects;
    for (std::size_t i = 0; i < n; ++i) effects.append(i ? ",\"a" : "\"a").append(std::to_string((i * 7919) % n)).append("\":true");
    const DomainFile f = parse_domain_json(R"({"actions": [{"name": "all", "cost": 1, "effects": {)" + effects + "}}]}");
    ASSERT_EQ(f.domain.atom_count(), n);
    for (std::size_t i = 0; i < n; i += 997)
        EXPECT_EQ(f.domain.atom_name(goap::AtomId(static_cast<std::uint32_t>(i))), std::string("a").append(std::to_string((i * 7919) % n)));
    // A duplicate among them, at the very end, is still found and positioned.
    const std::string dup = R"({"actions": [{"name": "all", "cost": 1, "effects": {)" + effects + R"(,"a5":false}}]})";
    const LoadError e = domain_error(dup);
    EXPECT_EQ(e.column(), dup.rfind("\"a5\"") + 1) << e.what();
    EXPECT_EQ(e.field(), "actions[0].effects.a5");
}

// ---- memory amplification -----------------------------------------------------------------------

// `actions` actions, each with its own atom.
std::string wide_domain(std::size_t actions) {
    std::string text = R"({"actions": [)";
    for (std::size_t i = 0; i < actions; ++i)
        text.append(i ? ",\n" : "").append(R"({"name": "a)").append(std::to_string(i)).append(R"(", "cost": 1, "effects": {"x)")
            .append(std::to_string(i)).append(R"(": true}})");
    return text + R"(], "goal": {"x0": true}})";
}

TEST(InputLimits, DenseTablesOverBudgetAreRefusedNamingTheMemory) {
    const std::string text = wide_domain(3000);
    // Reference: 3000 actions x 3000 atoms = 47 words per bit set; 32 bytes per word per action, 16 per
    // goal, 8 for the start state.
    const std::uint64_t need = 47 * (32 * 3000 + 16 + 8);
    JsonLimits limits;
    limits.max_table_bytes = need - 1;
    const LoadError e = domain_error(text, limits);
    EXPECT_EQ(e.field(), "actions");
    EXPECT_EQ(e.line(), 1u);
    EXPECT_EQ(e.column(), 2u);
    EXPECT_TRUE(contains(e.message(), "would need about 4.3 MiB (3000 actions x 3000 atoms)")) << e.what();
    limits.max_table_bytes = need;
    EXPECT_NO_THROW((void)parse_domain_json(text, "d.json", limits));
}

// The same budget (its default, 256 MiB) for spreadsheet domains, in the loader and in lint, which used
// to build the tables of any spreadsheet: a 0.6 MB file of 30,000 one-atom actions asked for 429 MiB.
TEST(InputLimits, DenseTablesOverBudgetAreRefusedInSpreadsheets) {
    // Row i (from 0) is action a<i> turning x<i> into x<i+1>: after it, i + 1 actions and i + 2 atoms. The
    // reference finds the first row past the budget with the documented formula.
    constexpr std::size_t rows = 30000;
    std::string csv = "name,cost,preconditions,effects\n";
    for (std::size_t i = 0; i < rows; ++i)
        csv.append("a").append(std::to_string(i)).append(",1,x").append(std::to_string(i)).append(",x").append(std::to_string(i + 1)).append("\n");
    std::size_t crossing = rows;
    for (std::size_t i = 0; i < rows && crossing == rows; ++i) {
        const std::uint64_t actions = i + 1, atoms = i + 2;
        if (static_cast<double>((atoms + 63) / 64) * static_cast<double>(32 * actions + 8) > static_cast<double>(kDefaultMaxTableBytes))
            crossing = i;
    }
    ASSERT_LT(crossing, rows);
    try {
        (void)parse_domain_csv(csv, "big.csv");
        ADD_FAILURE() << "a spreadsheet over the table budget loaded";
    } catch (const LoadError& e) {
        EXPECT_EQ(e.line(), crossing + 2) << e.what();  // the header is line 1
        EXPECT_EQ(e.field(), "name") << e.what();
        EXPECT_TRUE(contains(e.message(), "atom tables would need about")) << e.what();
    }
    const LintReport r = lint_domain_text(csv, DomainFormat::Csv, "big.csv");
    EXPECT_FALSE(r.readable);
    ASSERT_EQ(r.findings.size(), 1u);
    EXPECT_TRUE(contains(format_finding(r, r.findings[0]), "big.csv:" + std::to_string(crossing + 2) + ":1: name: error: the domain's atom tables"))
        << format_finding(r, r.findings[0]);
}

// Lint of a JSON domain over the default budget says so and reads no further. (Reading its 24,000 actions
// also used to take two minutes: each field's position was looked up by a scan from the text's start.)
TEST(InputLimits, DenseTablesOverBudgetAreRefusedByLint) {
    const std::string json = wide_domain(24000);
    const LintReport j = lint_domain_text(json, DomainFormat::Json, "big.json");
    EXPECT_FALSE(j.readable);
    ASSERT_EQ(j.findings.size(), 1u);
    EXPECT_TRUE(contains(format_finding(j, j.findings[0]), "big.json:1:2: actions: error: the domain's atom tables would need about"))
        << format_finding(j, j.findings[0]);
}

TEST(InputLimits, ScenarioAgentsOverBudgetAreRefusedAtTheAgentThatCrossesIt) {
    std::string text = R"({"domain": {"actions": [{"name": "a", "cost": 1, "effects": {"x": true}}]},
        "types": {"t": {"actions": {"a": 1}}}, "agents": [)";
    for (int i = 0; i < 100; ++i)
        text.append(i ? ",\n" : "\n").append(R"({"name": "n)").append(std::to_string(i))
            .append(R"(", "type": "t", "goals": [{"name": "g", "conditions": {"x": true}}]})");
    text += "]}";
    // One atom = one word; each agent: 32 bytes x (1 + 1 goal) = 64 bytes. A budget of 64 * 40 + 10 bytes
    // admits 40 agents and refuses the 41st (agents[40], on line 3 + 40).
    JsonLimits limits;
    limits.max_table_bytes = 64 * 40 + 10;
    const LoadError e = scenario_error(text, limits);
    EXPECT_EQ(e.field(), "agents[40]") << e.what();
    EXPECT_EQ(e.line(), 43u) << e.what();
    EXPECT_TRUE(contains(e.message(), "100 agents x 1 atoms")) << e.what();
    limits.max_table_bytes = 64 * 100;
    ScenarioParseOptions options;
    options.limits = limits;
    EXPECT_EQ(parse_scenario_json(text, "s.json", options).agents.size(), 100u);
}

// ---- costs --------------------------------------------------------------------------------------

TEST(InputLimits, CostsThatCouldOverflowAreRefused) {
    const auto with_cost = [](const std::string& cost) {
        return R"({"actions": [{"name": "a", "cost": 1, "effects": {"x": true}},
                     {"name": "b", "cost": )" + cost + R"(, "preconditions": {"x": true}, "effects": {"y": true}}],
                   "goal": {"y": true}})";
    };
    const LoadError e = domain_error(with_cost("1.7e308"));
    EXPECT_EQ(e.line(), 2u);
    EXPECT_EQ(e.column(), 36u) << e.what();  // the member's key
    EXPECT_EQ(e.field(), "actions[1].cost");
    EXPECT_TRUE(contains(e.message(), "must be at most 1e+09")) << e.what();
    EXPECT_TRUE(contains(domain_error(with_cost("1000000001")).message(), "at most 1e+09"));
    EXPECT_EQ(parse_domain_json(with_cost("1e9")).domain.action_cost(goap::ActionId(1)), 1e9);
    // The per-domain total (1e15 by default; lowered here to keep the test small).
    JsonLimits limits;
    limits.max_total_cost = 100;
    const LoadError t = domain_error(with_cost("99.5"), limits);
    EXPECT_EQ(t.field(), "actions[1].cost");
    EXPECT_TRUE(contains(t.message(), "add up to more than 100")) << t.what();
    limits.max_total_cost = 1e300;  // cannot be raised past kMaxTotalActionCost
    limits.max_action_cost = 1e300;
    EXPECT_TRUE(contains(domain_error(with_cost("2e9"), limits).message(), "at most 1e+09"));
    // Scenario cost overrides obey the same bound.
    const std::string scenario = R"({"domain": {"actions": [{"name": "a", "cost": 1, "effects": {"x": true}}]},
        "types": {"t": {"actions": {"a": {"ticks": 1, "cost": 1e300}}}}, "agents": []})";
    const LoadError s = scenario_error(scenario);
    EXPECT_EQ(s.field(), "types.t.actions.a.cost");
    EXPECT_EQ(s.line(), 2u);
    EXPECT_TRUE(contains(s.message(), "at most 1e+09")) << s.what();
    const std::string timeline = R"({"domain": {"actions": [{"name": "a", "cost": 1, "effects": {"x": true}}]},
        "types": {"t": {"actions": {"a": 1}}}, "agents": [{"name": "n", "type": "t"}],
        "timeline": [{"tick": 1, "agent": "n", "cost": {"a": 5e9}}]})";
    EXPECT_EQ(scenario_error(timeline).field(), "timeline[0].cost.a");
}

// ---- numbers, ticks and messages ------------------------------------------------------------------

// Every JSON format is checked the same way before its fields are read: a syntax error points at the
// first byte of the token that breaks it (the parser itself stops at its last byte), invalid UTF-8 names
// the byte.
TEST(InputLimits, EveryJsonFormatPointsAtTheTokenThatBreaksIt) {
    const auto errors = [](const std::string& text) {
        std::vector<std::pair<std::string, LoadError>> out;
        const auto attempt = [&](const char* format, const auto& load) {
            try {
                load();
                ADD_FAILURE() << format << " accepted " << text;
            } catch (const LoadError& e) {
                out.emplace_back(format, e);
            }
        };
        attempt("domain", [&] { (void)parse_domain_json(text, "x.json"); });
        attempt("scenario", [&] { (void)parse_scenario_json(text, "x.json"); });
        attempt("graph", [&] { (void)parse_graph_json(text, "x.json"); });
        attempt("save", [&] { (void)parse_save(text, "x.json"); });
        return out;
    };
    const std::string syntax = "{\"_note\": \"a\" \"b\", \"_more\": 1}";
    for (const auto& [format, e] : errors(syntax)) {
        EXPECT_EQ(e.line(), 1u) << format << ": " << e.what();
        EXPECT_EQ(e.column(), syntax.find("\"b\"") + 1) << format << ": " << e.what();
        EXPECT_EQ(e.field(), "_note") << format << ": " << e.what();
        EXPECT_TRUE(contains(e.message(), "syntax error")) << format << ": " << e.what();
    }
    const std::string utf8 = "{\"_note\": \"a\xff\"}";
    for (const auto& [format, e] : errors(utf8)) {
        EXPECT_EQ(e.column(), utf8.find('\xff') + 1) << format << ": " << e.what();
        EXPECT_EQ(e.message(), "invalid UTF-8 (byte 0xFF)") << format << ": " << e.what();
    }
}

TEST(InputLimits, ScenarioNumberOverflowIsPositioned) {
    const std::string text = "{\"domain\": {\"actions\": []},\n  \"ticks\": 1e999, \"types\": {}, \"agents\": []}";
    const LoadError e = scenario_error(text);
    EXPECT_EQ(e.line(), 2u) << e.what();
    EXPECT_EQ(e.column(), 12u) << e.what();
    EXPECT_EQ(e.field(), "ticks");
    EXPECT_EQ(e.message(), "number out of range");
    EXPECT_FALSE(contains(e.what(), "json.exception")) << e.what();
    const std::string negative = "{\"domain\": {\"actions\": []}, \"_x\": [1, -2e400]}";
    const LoadError n = scenario_error(negative);
    EXPECT_EQ(n.column(), negative.find("-2e400") + 1) << n.what();
    EXPECT_EQ(n.field(), "_x[1]");
}

TEST(InputLimits, ScenarioTicksAreBounded) {
    const auto with_ticks = [](const std::string& ticks) {
        return R"({"domain": {"actions": [{"name": "a", "cost": 1, "effects": {"x": true}}]}, "ticks": )" + ticks +
               R"(, "types": {"t": {"actions": {"a": 1}}}, "agents": []})";
    };
    const std::string huge = with_ticks("18446744073709551615");
    const LoadError e = scenario_error(huge);
    EXPECT_EQ(e.field(), "ticks");
    EXPECT_EQ(e.column(), huge.find("\"ticks\"") + 1) << e.what();
    EXPECT_TRUE(contains(e.message(), "at most 10000000")) << e.what();
    EXPECT_EQ(parse_scenario_json(with_ticks("10000000")).ticks, 10000000u);
}

TEST(InputLimits, LongNamesAreCutAndListsAreShort) {
    // A 1 MB atom name used to be quoted twice into a 2 MB message.
    const std::string name(1 << 20, 'n');
    const LoadError e = domain_error(R"({"atoms": ["x"], "actions": [{"name": "a", "cost": 1, "effects": {")" + name + R"(": true}}]})");
    EXPECT_LT(std::string(e.what()).size(), 500u);
    EXPECT_TRUE(contains(e.message(), "unknown atom 'nnnn")) << e.what();
    EXPECT_TRUE(contains(e.message(), "...'")) << e.what();
    EXPECT_TRUE(contains(e.field(), "...")) << e.what();
    // An unknown action among 10,000 lists five of them, not all.
    std::string actions;
    for (int i = 0; i < 10000; ++i)
        actions.append(i ? "," : "").append(R"({"name": "act)").append(std::to_string(i)).append(R"(", "cost": 1})");
    const std::string text = R"({"domain": {"actions": [)" + actions +
                             R"(]}, "types": {"t": {"actions": {"nope": 1}}}, "agents": []})";
    const LoadError u = scenario_error(text);
    EXPECT_EQ(u.field(), "types.t.actions.nope");
    EXPECT_TRUE(contains(u.message(), "(the domain's actions: act0, act1, act2, act3, act4 and 9995 more)")) << u.what();
    EXPECT_LT(std::string(u.what()).size(), 300u);
}

TEST(InputLimits, ControlCharactersNeverReachTheMessage) {
    // ESC [2J clears a terminal; U+009B is the one-byte CSI of C1 terminals.
    for (const std::string& evil : {std::string("\\u001b[2J"), std::string("\\u009b2J"), std::string("a\\u0007b\\u007f")}) {
        const std::string text = R"({"atoms": ["x"], "actions": [{"name": "a", "cost": 1, "effects": {")" + evil + R"(": true}}]})";
        const LoadError e = domain_error(text);
        const std::string what = e.what();
        for (const char c : what) {
            const auto u = static_cast<unsigned char>(c);
            EXPECT_FALSE(u < 0x20 || u == 0x7f) << what;
        }
        EXPECT_EQ(what.find("\xC2\x9B"), std::string::npos) << what;
        EXPECT_TRUE(contains(what, "\\x")) << what;
    }
    // LoadError itself escapes what it is given (file names come from users too).
    const LoadError raw("evil\x1b[2J.json", 1, 2, "f\x07", "m\xC2\x9B" "x");
    EXPECT_STREQ(raw.what(), "evil\\x1b[2J.json:1:2: f\\x07: m\\x9bx");
    EXPECT_EQ(raw.file(), "evil\x1b[2J.json") << "the accessors keep the original";
}

// ---- timeline agents ----------------------------------------------------------------------------

TEST(InputLimits, TimelineEventsReachTheirAgents) {
    // Events name agents; the runner resolves each name once. Reference: the private state each agent
    // must end with, written out by hand.
    std::string agents, events;
    for (int i = 0; i < 50; ++i) {
        agents.append(i ? "," : "").append(R"({"name": "n)").append(std::to_string(i)).append(R"(", "type": "t"})");
        if (i % 7 == 3)
            events.append(events.empty() ? "" : ",").append(R"({"tick": 0, "agent": "n)").append(std::to_string(i)).append(R"(", "set": {"p": true}})");
    }
    const std::string text = R"({"domain": {"atoms": ["p", "x"], "actions": [{"name": "a", "cost": 1, "effects": {"x": true}}]},
        "types": {"t": {"actions": {"a": 1}}}, "agents": [)" + agents + R"(], "timeline": [)" + events + "]}";
    const goap::Scenario s = parse_scenario_json(text);
    goap::ScenarioRunner runner(s);
    ASSERT_TRUE(runner.error().empty()) << runner.error();
    runner.step();
    const goap::AtomId p = s.domain.find_atom("p");
    for (int i = 0; i < 50; ++i) {
        const goap::Agent* agent = runner.system().find(runner.agents()[static_cast<std::size_t>(i)]);
        ASSERT_NE(agent, nullptr);
        EXPECT_EQ(agent->private_state().get(p), i % 7 == 3) << "agent n" << i;
    }
}

}  // namespace
}  // namespace gameplan::io

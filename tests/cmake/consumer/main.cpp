// A downstream program: proves gameplan can be consumed with add_subdirectory, FetchContent and
// find_package, using both the core library and the io library.
#include <gameplan/gameplan.hpp>
#include <gameplan/io/load_error.hpp>

#include <cstdio>
#include <cstring>
#include <vector>

namespace {
// A 1-D corridor of 10 nodes; the goal is the last one.
struct Corridor {
    std::size_t node_bound() const { return 10; }
    double heuristic(gameplan::search::NodeIndex n) const { return 9.0 - n; }
    bool is_goal(gameplan::search::NodeIndex n) const { return n == 9; }
    template <class Sink>
    void expand(gameplan::search::NodeIndex n, Sink&& sink) const {
        if (n + 1 < 10) sink(n + 1, 1.0, 0);
        if (n > 0) sink(n - 1, 1.0, 1);
    }
};
}  // namespace

int main() {
    if (std::strcmp(gameplan::version(), GAMEPLAN_VERSION_STRING) != 0) return 1;
    Corridor space;
    gameplan::search::SearchContext<double> ctx;
    if (ctx.run(space, 0) != gameplan::Status::Found || ctx.g(9) != 9.0) return 1;
    try {
        throw gameplan::io::LoadError("f.json", 1, 2, "atoms", "example");
    } catch (const gameplan::io::LoadError& e) {
        std::printf("gameplan %s consumer ok (%s)\n", gameplan::version(), e.what());
    }
    return 0;
}

// A downstream program using the io library (gameplan::io) on top of the core: loads a MovingAI map it
// writes itself, finds a path on it, and catches a LoadError.
#include <gameplan/gameplan.hpp>
#include <gameplan/io/load_error.hpp>
#include <gameplan/io/movingai.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>

int main() {
    using namespace gameplan;
    const std::filesystem::path file = std::filesystem::temp_directory_path() / "gameplan_consumer_io.map";
    {
        std::ofstream out(file);
        out << "type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n....\n";
    }
    const path::GridMap map = io::load_movingai_map(file);
    std::filesystem::remove(file);
    path::GridPathfinder finder;
    path::GridPath route;
    // The wall in the middle row forces a detour: longer than the straight 3 cells.
    if (map.width() != 4 || map.height() != 3) return 1;
    if (finder.find_path(map, {0, 1}, {3, 1}, {}, route) != Status::Found || route.cost <= 3.0) return 1;
    try {
        (void)io::load_movingai_map(file);  // removed: a clear LoadError naming the file
        return 1;
    } catch (const io::LoadError& e) {
        std::printf("gameplan %s io consumer ok (path of %zu cells; %s)\n", version(), route.cells.size(), e.what());
    }
    return 0;
}

// gameplan: command-line front end of the library. Public API only.
#include "cli_support.hpp"
#include "commands.hpp"
#include "navmesh_cli.hpp"
#include "pddl_cli.hpp"

#include <gameplan/config.hpp>
#include <gameplan/io/load_error.hpp>

#include <exception>
#include <iostream>

int main(int argc, char** argv) {
    CLI::App app{"gameplan: GOAP planning and A* pathfinding for games"};
    app.set_version_flag("--version", std::string("gameplan ") + gameplan::version());
    app.require_subcommand(1);
    int exit_code = 0;
    // Subcommands register here.
    gameplan::cli::add_plan_command(app, exit_code);
    gameplan::cli::add_path_command(app, exit_code);
    gameplan::cli::add_scen_command(app, exit_code);
    gameplan::cli::add_explore_command(app, exit_code);
    gameplan::cli::add_simulate_command(app, exit_code);
    gameplan::cli::add_demo_command(app, exit_code);
    gameplan::cli::add_crowd_command(app, exit_code);
    gameplan::cli::add_graph_command(app, exit_code);
    gameplan::cli::add_waypoints_command(app, exit_code);
    gameplan::cli::add_navmesh_command(app, exit_code);
    gameplan::cli::add_convert_command(app, exit_code);
    gameplan::cli::add_explain_command(app, exit_code);
    gameplan::cli::add_lint_command(app, exit_code);
    gameplan::cli::add_dot_command(app, exit_code);
    gameplan::cli::add_ground_command(app, exit_code);
    gameplan::cli::refuse_empty_values(app, {"avoid"});  // --avoid '': no letter to avoid
    try {
        app.parse(argc, argv);
        // A command that could not write its answer has failed, whatever it computed.
        gameplan::cli::finish_output();
    } catch (const CLI::ParseError& e) {
        const int rc = app.exit(e);
        return rc == 0 ? 0 : 2;
    } catch (const gameplan::io::LoadError& e) {
        std::cerr << "gameplan: " << e.what() << '\n';
        return 2;
    } catch (const gameplan::cli::UsageError& e) {
        std::cerr << "gameplan: " << e.what() << '\n';
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "gameplan: error: " << e.what() << '\n';
        return 2;
    }
    return exit_code;
}

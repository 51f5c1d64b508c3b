// Test helper: `png_probe FILE [X Y]...` decodes a PNG and prints "WIDTHxHEIGHT" then "X,Y=R,G,B" per
// point, so CLI tests can check the pictures the tool writes. Exit 2 if the file cannot be decoded.
#include <gameplan/io/image.hpp>
#include <gameplan/io/load_error.hpp>

#include <cstdlib>
#include <iostream>

int main(int argc, char** argv) {
    if (argc < 2 || argc % 2 != 0) {
        std::cerr << "usage: png_probe FILE [X Y]...\n";
        return 2;
    }
    try {
        const gameplan::io::Image image = gameplan::io::read_png(argv[1]);
        std::cout << image.width() << 'x' << image.height() << '\n';
        for (int i = 2; i + 1 < argc; i += 2) {
            const int x = std::atoi(argv[i]), y = std::atoi(argv[i + 1]);
            const gameplan::io::Rgb c = image.at(x, y);
            std::cout << x << ',' << y << '=' << int(c.r) << ',' << int(c.g) << ',' << int(c.b) << '\n';
        }
    } catch (const gameplan::io::LoadError& e) {
        std::cerr << e.what() << '\n';
        return 2;
    }
    return 0;
}

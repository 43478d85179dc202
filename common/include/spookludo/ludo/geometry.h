#pragma once
// The shape of a Classic Ludo board (RULES.md part 2, "Geometry" and "Seats"), as constexpr
// questions of the arm length n.
//
// A piece is described by its progress along its own track:
//   yard (-1)             waiting in its starting circle
//   0 .. 8n+2             on the circuit; 0 is its start square, one square from the end of its arm
//   8n+3 .. 9n+1          in its home column (n - 1 squares, private to its colour)
//   9n+2                  home (the home triangle)
// The circuit has 8n + 4 squares; a piece never steps on the square just behind its start square
// (progress 8n+3 would be that square; the piece turns into its home column there instead).
//
// One exception, under the house rule capture_to_home: a piece whose player has not captured
// yet goes on round the circuit past its home column, and starts a new lap (its progress counts
// from its start square again). Such a piece can stop on the square just behind its start
// square; its progress there is behind_start() (9n+3, a value past home, so that every other
// progress keeps its meaning). A piece at behind_start() is one step before progress 0.
#include <array>
#include <cstdint>
#include <string_view>

namespace spookludo::ludo {

inline constexpr int kPiecesPerPlayer = 4;
inline constexpr int kMaxPlayers = 4;
inline constexpr int kYard = -1;  // the progress of a piece in its starting circle

// Clockwise order round the board.
enum class Colour : std::uint8_t { green, yellow, red, blue };

constexpr std::string_view to_string(Colour c) noexcept {
    constexpr std::array<std::string_view, 4> names{"green", "yellow", "red", "blue"};
    return names[static_cast<std::size_t>(c)];
}

// The colour of a seat: two players sit opposite (green, red), three take green, yellow, red.
constexpr Colour colour_of_seat(int players, int seat) noexcept {
    if (players == 2) return seat == 0 ? Colour::green : Colour::red;
    return static_cast<Colour>(seat);
}

class Geometry {
public:
    constexpr explicit Geometry(int arm = 8) noexcept : arm_(arm) {}

    constexpr int arm() const noexcept { return arm_; }
    constexpr int circuit_squares() const noexcept { return 8 * arm_ + 4; }        // 68 or 52
    constexpr int home_column_squares() const noexcept { return arm_ - 1; }        // 7 or 5
    constexpr int last_circuit_progress() const noexcept { return 8 * arm_ + 2; }  // 66 or 50
    constexpr int home() const noexcept { return 9 * arm_ + 2; }                   // 74 or 56
    constexpr int start_spacing() const noexcept { return 2 * arm_ + 1; }          // 17 or 13

    // The circuit square (0 .. circuit_squares()-1, square 0 being green's start square).
    constexpr int start_square(Colour c) const noexcept { return static_cast<int>(c) * start_spacing(); }

    constexpr int behind_start() const noexcept { return 9 * arm_ + 3; }               // 75 or 57

    // The square of the star on each arm (house rule safe_squares): on the arm after a colour's
    // start square, the third square from its tip (8 squares on from the start square on the
    // modern board, 12 on the text's).
    constexpr int star_square(Colour c) const noexcept {
        const int s = start_square(c) + 2 * arm_ - 4;
        return s >= circuit_squares() ? s - circuit_squares() : s;
    }
    // A start square or a star square (where safe_squares forbids captures).
    constexpr bool is_safe_square(int square) const noexcept {
        const int q = square % start_spacing();
        return square >= 0 && square < circuit_squares() && (q == 0 || q == 2 * arm_ - 4);
    }

    constexpr bool on_circuit(int progress) const noexcept {
        return (progress >= 0 && progress <= last_circuit_progress()) || progress == behind_start();
    }
    // The progress as a count of steps from the start square (behind_start() is -1), for the
    // distances of a piece on the circuit.
    constexpr int steps(int progress) const noexcept { return progress == behind_start() ? -1 : progress; }
    constexpr bool in_home_column(int progress) const noexcept {
        return progress > last_circuit_progress() && progress < home();
    }
    constexpr bool valid_progress(int progress) const noexcept {
        return (progress >= kYard && progress <= home()) || progress == behind_start();
    }

    // The circuit square a piece of colour c stands on at this progress; -1 off the circuit.
    constexpr int square_of(Colour c, int progress) const noexcept {
        if (!on_circuit(progress)) return -1;
        return square_ahead(c, steps(progress));
    }
    // The circuit square `steps` steps from colour c's start square (-1 is the square behind it;
    // beyond 8n+3 the circuit goes round again).
    constexpr int square_ahead(Colour c, int steps) const noexcept {
        const int s = (start_square(c) + steps) % circuit_squares();
        return s < 0 ? s + circuit_squares() : s;
    }

    // The progress a piece of colour c would have on circuit square `square` (0 .. 8n+3; 8n+3 is
    // the square just behind its start square, which it never uses).
    constexpr int progress_at(Colour c, int square) const noexcept {
        const int p = square - start_square(c);
        return p < 0 ? p + circuit_squares() : p;
    }

    friend constexpr bool operator==(const Geometry&, const Geometry&) = default;

private:
    int arm_;
};

}  // namespace spookludo::ludo

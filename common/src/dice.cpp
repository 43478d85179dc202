#include "spookludo/dice.h"

#include <stdexcept>
#include <string>

namespace spookludo {

std::string_view to_string(DrawPurpose purpose) noexcept {
    switch (purpose) {
        case DrawPurpose::assignment: return "assignment";
        case DrawPurpose::roll_off: return "roll_off";
        case DrawPurpose::movement: return "movement";
        case DrawPurpose::activation: return "activation";
        case DrawPurpose::throw_: return "throw";
    }
    return "unknown";
}

ScriptedDice::ScriptedDice(std::initializer_list<Face> faces) {
    for (Face f : faces) push_face(f);
}

void ScriptedDice::push_face(Face face) {
    if (face < 1 || face > 6) throw std::logic_error("scripted die face out of range: " + std::to_string(face));
    script_.push_back(static_cast<std::uint32_t>(face - 1));
}

void ScriptedDice::push_draw(std::uint32_t value) { script_.push_back(value); }

std::uint32_t ScriptedDice::draw(std::uint32_t n, DrawPurpose purpose) {
    if (script_.empty())
        throw std::logic_error("scripted dice ran out (a " + std::string(to_string(purpose)) + " draw was asked)");
    const std::uint32_t value = script_.front();
    if (value >= n)
        throw std::logic_error("scripted draw " + std::to_string(value) + " is out of range for a draw from " +
                               std::to_string(n));
    script_.pop_front();
    return value;
}

}  // namespace spookludo

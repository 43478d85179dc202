#include "game_words.h"

#include "i18n.h"
#include "spookludo/verify.h"

namespace spookludo::client {

std::string character_name(spook::Character c) {
    switch (c) {
        case spook::Character::hat: return trc("character", "Wizard's Hat");
        case spook::Character::cat: return trc("character", "Black Cat");
        case spook::Character::spook: return trc("character", "Spook");
        case spook::Character::werewolf: return trc("character", "Werewolf");
        case spook::Character::witch: return trc("character", "Witch");
        case spook::Character::none: return trc("character", "nobody");
    }
    return "?";
}

std::string character_name(std::string_view id) {
    if (const auto c = spook::parse_character_id(id)) return character_name(*c);
    return std::string(id);
}

std::string character_action(spook::Character c) {
    switch (c) {
        case spook::Character::hat: return tr("moves forward 3 squares");
        case spook::Character::cat: return tr("moves back 6 squares");
        case spook::Character::spook:
        case spook::Character::werewolf: return tr("goes back to the entrance of its region");
        case spook::Character::witch: return tr("goes back to square 1");
        case spook::Character::none: return tr("stays");
    }
    return "?";
}

std::string colour_name(ludo::Colour c) {
    switch (c) {
        case ludo::Colour::green: return trc("colour", "green");
        case ludo::Colour::yellow: return trc("colour", "yellow");
        case ludo::Colour::red: return trc("colour", "red");
        case ludo::Colour::blue: return trc("colour", "blue");
    }
    return "?";
}

}  // namespace spookludo::client

namespace spookludo::client {

std::string names_text(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& name : names) out = out.empty() ? name : tr("{a} and {b}", {{"a", out}, {"b", name}});
    return out;
}

std::string game_over_sentence(const std::vector<std::string>& winners, long length, bool spook, bool team) {
    if (winners.empty())
        return spook ? trn("Game over! Nobody wins after {n} round.", "Game over! Nobody wins after {n} rounds.", length)
                     : trn("Game over! Nobody wins after {n} turn.", "Game over! Nobody wins after {n} turns.", length);
    const std::string who = names_text(winners);
    if (team && !spook && winners.size() > 1)
        return trn("Game over! {names} win as a team after {n} turn.", "Game over! {names} win as a team after {n} turns.", length,
                   {{"names", who}});
    if (winners.size() > 1)
        return spook ? trn("Game over! {names} win together after {n} round.", "Game over! {names} win together after {n} rounds.",
                           length, {{"names", who}})
                     : trn("Game over! {names} win together after {n} turn.", "Game over! {names} win together after {n} turns.",
                           length, {{"names", who}});
    return spook ? trn("Game over! {name} wins after {n} round.", "Game over! {name} wins after {n} rounds.", length, {{"name", who}})
                 : trn("Game over! {name} wins after {n} turn.", "Game over! {name} wins after {n} turns.", length, {{"name", who}});
}

std::string abandoned_sentence(const std::optional<std::string>& reason) {
    if (reason && !reason->empty()) return tr("The game was abandoned: {reason}.", {{"reason", *reason}});
    return tr("The game was abandoned.");
}

std::string state_name(const std::string& state) {
    if (state == "lobby") return trc("room state", "lobby");
    if (state == "playing") return trc("room state", "playing");
    if (state == "finished") return trc("room state", "finished");
    if (state == "closed") return trc("room state", "closed");
    if (state == "connecting") return trc("room state", "connecting");
    return state;
}

}  // namespace spookludo::client

namespace spookludo::client {

std::string reaction_label(std::string_view id, std::string_view label) {
    // The pictures are the same in every language.
    if (id == "nooo") return trc("reaction", "nooo!");
    if (id == "phew") return trc("reaction", "phew");
    if (id == "good_luck") return trc("reaction", "good luck");
    if (id == "well_played") return trc("reaction", "well played");
    return std::string(label);
}

}  // namespace spookludo::client

namespace spookludo::client {

std::string region_name(spook::Region r) {
    switch (r) {
        case spook::Region::haunted_orchard: return trc("region", "Haunted Orchard");
        case spook::Region::creepy_cornfield: return trc("region", "Creepy Cornfield");
        case spook::Region::gruesome_graveyard: return trc("region", "Gruesome Graveyard");
        case spook::Region::wild_wood: return trc("region", "Wild Wood");
        case spook::Region::church: return tr("the church");
    }
    return "?";
}

}  // namespace spookludo::client

namespace spookludo::client {

std::string verify_words(const VerifyLine& line) {
    std::vector<std::pair<std::string, std::string>> args;
    for (const auto& [key, value] : line.args) {
        std::string v = value;
        if (key == "status") {
            if (value == "finished") v = trc("game status", "finished");
            else if (value == "abandoned") v = trc("game status", "abandoned");
            else if (value == "in_progress") v = trc("game status", "in_progress");
        } else if (key == "colour") {
            for (const auto c : {ludo::Colour::green, ludo::Colour::yellow, ludo::Colour::red, ludo::Colour::blue})
                if (value == ludo::to_string(c)) v = colour_name(c);
        }
        args.emplace_back(key, std::move(v));
    }
    return tr_text(line.text, args);
}

}  // namespace spookludo::client

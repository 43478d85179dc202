// The terminal's words for the server's codes (client/server_words.h): notices, game events and
// errors worded from their kind/code and parameters (PROTOCOL.md, "Words and languages"), the
// English the server still sends beside them shown only for a code this client does not know.
#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "server_words.h"

using namespace spookludo::client;
using nlohmann::json;

namespace {
bool fallback(const std::string& text) { return text.rfind("The server said:", 0) == 0; }
}  // namespace

TEST_CASE("server words: notices are worded from their kind and fields, as the server says them in English [client][words]") {
    CHECK(notice_text(json::parse(R"({"type":"notice","kind":"time_factor","seat":0,"name":"Ann","factor":0,"text":"x"})")) ==
          "Ann lifted the time limit: take your time");
    CHECK(notice_text(json::parse(R"({"type":"notice","kind":"time_factor","seat":0,"name":"Ann","factor":3,"text":"x"})")) ==
          "Ann gave everyone more time to choose: x3");
    CHECK(notice_text(json::parse(R"({"type":"notice","kind":"hurry","seat":1,"name":"Ben","time_ms":15000,"text":"x"})")) ==
          "the host hurries Ben: 15 s left to choose");
    CHECK(notice_text(json::parse(R"({"type":"notice","kind":"ask_time","seat":1,"name":"Ben","factor":1,"text":"x"})")) ==
          "Ben asks for more time to choose");
    CHECK(notice_text(json::parse(R"({"type":"notice","kind":"joined","seat":0,"name":"Ann","host":true,"text":"x"})")) ==
          "Ann sits at seat 1 (the host)");
    CHECK(notice_text(json::parse(R"({"type":"notice","kind":"left","seat":1,"name":"Ben","then":"free","text":"x"})")) ==
          "Ben left seat 2: it is free");
    CHECK(notice_text(json::parse(R"({"type":"notice","kind":"left","seat":1,"name":"Ben","then":"server","text":"x"})")) ==
          "Ben left: the server plays seat 2");
    CHECK(notice_text(json::parse(R"({"type":"notice","kind":"kicked","seat":2,"name":"Cid","then":"bot","policy":"best"})")) ==
          "Cid (seat 3) was kicked: a best bot plays it");
    CHECK(notice_text(json::parse(R"({"type":"notice","kind":"host","seat":1,"name":"Ben","reason":"left","former":"Ann"})")) ==
          "Ben is the host now (Ann left)");
    CHECK(notice_text(json::parse(R"({"type":"notice","kind":"paused","reason":"restart","wait_s":120})")) ==
          "the server restarted: the game waits for its players to come back (at most 120 s; the host may resume it)");
    CHECK(notice_text(json::parse(R"({"type":"notice","kind":"auto_start","bots":1})")) ==
          "time is up: 1 bot takes the free seats, and the game starts");
    CHECK(notice_text(json::parse(R"({"type":"notice","kind":"journal","state":"failing","cause":"database or disk is full"})"))
              .find("(database or disk is full)") != std::string::npos);
    for (const char* kind : {"joined", "left", "away", "back", "server_plays", "kicked", "removed", "host", "paused",
                             "resumed", "bot_added", "seat_added", "seat_removed", "auto_start", "journal", "seed", "table"}) {
        CAPTURE(kind);
        const std::string text = notice_text(json{{"type", "notice"}, {"kind", kind}, {"seat", 1}, {"name", "Ben"}, {"text", "ENGLISH"}});
        CHECK_FALSE(fallback(text));
        CHECK(text.find('{') == std::string::npos);
    }
    CHECK(notice_text(json{{"type", "notice"}, {"kind", "from_a_newer_server"}, {"text", "new words"}}) ==
          "The server said: new words");
}

TEST_CASE("server words: Ludo events and a table game's announcements are worded from their fields [client][words]") {
    CHECK(event_text(json::parse(R"({"kind":"moved","seat":1,"colour":"yellow","piece":2,"from":3,"to":9})"),
                     [](int) { return std::string("Ben"); }) == "Ben (yellow) moves piece 2 from 3 to 9");
    CHECK(event_text(json::parse(R"({"kind":"throw","seat":1,"colour":"yellow","face":6,"turn":57})")) == "turn 57: yellow throws 6");
    CHECK(event_text(json::parse(R"({"type":"roll","round":1,"face":4,"table":true})")) ==
          "Round 1: roll 4. Everyone moves one piece 4 squares.");
    CHECK(event_text(json::parse(R"({"type":"activation","round":1,"face":3,"character":"cat","table":true})")) ==
          "Round 1: activation 3. The Black Cat wakes: every piece on its squares moves back 6 squares.");
    CHECK(event_text(json::parse(R"({"type":"roll_off","starts":2,"table":true,"names":["Ann","Ben","Cid"],
        "events":[{"kind":"roll_off_throw","seat":0,"face":3},{"kind":"roll_off_throw","seat":1,"face":5},{"kind":"roll_off_throw","seat":2,"face":6}]})")) ==
          "Roll-off: Ann 3, Ben 5, Cid 6. Cid starts.");
    CHECK(event_text(json::parse(R"({"type":"throw","turn":1,"seat":2,"face":6,"table":true,"name":"Cid","next":2,"next_name":"Cid"})")) ==
          "Throw 1: Cid throws 6. Cid throws again.");
    CHECK(event_text(json::parse(R"({"type":"turn_skipped","turn":1,"seat":2,"next":0,"name":"Cid","next_name":"Ann"})")) ==
          "Cid's turn is skipped. Next: Ann.");
    for (const char* kind : {"roll_off_throw", "starts", "throw", "pass", "three_sixes", "entered", "moved", "captured",
                             "reached_home", "finished", "extra_throw", "turn", "game_over"}) {
        CAPTURE(kind);
        const std::string text = event_text(json{{"kind", kind}, {"seat", 0}, {"colour", "green"}, {"piece", 1}, {"face", 6},
                                                 {"from", 1}, {"to", 7}, {"square", 3}, {"turn", 4}, {"text", "ENGLISH"}});
        CHECK_FALSE(fallback(text));
        CHECK(text.find('{') == std::string::npos);
    }
    CHECK(abandoned_text(json::parse(R"({"status":"abandoned","cause":"host","reason":"the host ended the game"})")) ==
          "The game was abandoned: the host ended the game.");
}

TEST_CASE("server words: errors are worded from their code and args, with what the reader's view adds [client][words]") {
    CHECK(error_text(json::parse(R"({"code":"illegal_choice","args":{"reason":"exact_throw","piece":1,"square":38,"face":4,"needed":2}})")) ==
          "Piece 1 on square 38 cannot move 4: the church needs an exact throw of 2.");
    CHECK(error_text(json::parse(R"({"code":"server_full","args":{"limit":"rooms_per_address","holds":10,"max":10}})"))
              .find("holds 10 open rooms") != std::string::npos);
    CHECK(error_text(json::parse(R"({"code":"bad_name","args":{"reason":"invisible","char":"U+202E"}})")).find("U+202E") !=
          std::string::npos);
    CHECK(error_text(json::parse(R"({"code":"room_full","args":{"reason":"seats"}})"), ErrorContext{true, "ludo"}) ==
          "The room is full: press + for another seat.");
    CHECK(error_text(json::parse(R"({"code":"bad_field","args":{"field":"options.players"}})"), ErrorContext{false, "ludo"}) ==
          "Ludo takes 2 to 4 players.");
    CHECK(error_text(json::parse(R"({"code":"rate_limited","args":{"limit":"reaction_sender","retry_after_ms":1400}})")) ==
          "One reaction every 2 seconds: try again in a moment.");
    for (const char* code : {"bad_json", "unknown_type", "bad_field", "version_mismatch", "hello_first", "too_large",
                             "binary_frame", "bad_reaction", "rate_limited", "room_not_found", "room_lost", "room_full",
                             "server_full", "name_taken", "bad_name", "bad_token", "not_in_room", "not_host", "not_a_player",
                             "wrong_state", "stale_decision", "paused", "unavailable", "illegal_choice", "already_in_room",
                             "internal_error"}) {
        CAPTURE(code);
        // version_mismatch without its args is another version's server: its own words are shown.
        const json args = std::string_view(code) == "version_mismatch" ? json{{"client", 1}, {"server", 2}} : json::object();
        const std::string text = error_text(json{{"code", code}, {"message", "ENGLISH"}, {"args", args}});
        CHECK_FALSE(fallback(text));
        CHECK(text.find("ENGLISH") == std::string::npos);
        CHECK(text.find('{') == std::string::npos);
    }
    CHECK(error_text(json{{"code", "from_a_newer_server"}, {"message", "new words"}}) == "The server said: new words");
    CHECK(error_text(json{{"code", "version_mismatch"}, {"message", "this server speaks protocol 2, the client 1: update the client"}}) ==
          "this server speaks protocol 2, the client 1: update the client");
}

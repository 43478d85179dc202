#include "boards_live.h"

#include <memory>
#include <optional>
#include <stdexcept>

#include "i18n.h"
#include "room_flags.h"
#include "session.h"

namespace spookludo::cli {

LiveBoards live_boards(const std::string& url, const std::string& ca_file, const std::string& room,
                       std::chrono::milliseconds wait, const std::function<void(const std::string&)>& on_wait) {
    client::SessionConfig config;
    config.url = server_url(url, ca_file);
    config.mode = client::JoinMode::watch;
    config.room = room;
    config.client = "spookludo boards";

    client::EventLoop loop;
    std::optional<LiveBoards> result;
    std::string failure;
    bool told = false;
    std::unique_ptr<client::Session> session;

    auto finish = [&](std::string why) {
        if (failure.empty() && !result) failure = std::move(why);
        loop.stop();
    };
    client::Session::Callbacks cb;
    cb.on_message = [&](const nlohmann::json& m) {
        if (result || !failure.empty()) return;
        const auto& view = session->view();
        const std::string type = m.value("type", "");
        if (type == "error" && view.room().empty())
            return finish(client::tr("room {code}: {message}", {{"code", room}, {"message", m.value("message", m.value("code", std::string("refused")))}}));
        if (view.room().empty()) return;
        if (!view.in_game()) {
            if (!told && on_wait) on_wait(client::tr("room {code} is in its lobby: waiting for its game to start...", {{"code", view.room()}}));
            told = true;
            return;
        }
        if (view.options().game != GameKind::spook)
            return finish(client::tr("room {code} plays Classic Ludo: only Spook & Werewolf Ludo has boards to print", {{"code", view.room()}}));
        const auto& boards = view.spook_boards();
        LiveBoards live{view.room(), {}};
        for (const int seat : view.play_seats()) {
            if (seat < 0 || static_cast<std::size_t>(seat) >= boards.size() || boards[static_cast<std::size_t>(seat)].empty())
                return;  // the assignment is not there yet (the commitment came first)
            live.pages.push_back({view.seat_name(seat), "room " + view.room() + ", seat " + std::to_string(seat + 1),
                                  spook::Board::from_notation(boards[static_cast<std::size_t>(seat)])});
        }
        if (live.pages.empty()) return;
        result = std::move(live);
        session->end({});
        loop.stop();
    };
    cb.on_end = [&](const client::SessionEnd& end) {
        if (!result) finish(end.reason.empty() ? client::tr("the connection ended") : end.reason);
    };
    session = std::make_unique<client::Session>(loop, config, std::move(cb));
    const auto timer = loop.after(wait, [&] {
        finish(client::tr("the game in room {code} did not start within {seconds} s",
                          {{"code", room}, {"seconds", std::to_string(wait.count() / 1000)}}));
    });
    loop.on_signal([&](int) { finish(client::tr("interrupted")); });
    session->start();
    loop.run();
    loop.cancel(timer);
    if (!result) throw std::invalid_argument(failure.empty() ? client::tr("no boards from room {code}", {{"code", room}}) : failure);
    return std::move(*result);
}

}  // namespace spookludo::cli

// Quick reactions (react): a player, or a spectator when the host allows it, sends one of the
// fixed set (protocol::kReactions) and everyone in the room sees it with the sender's name. The
// bounds are Reactions' (reactions.h); nothing is journaled, nothing goes in the game's record,
// and nothing leaves the room.
#include "room_impl.h"

namespace spookludo::server {

void RoomImpl::handle(const std::shared_ptr<Peer>& peer, protocol::React& m) {
    const ReactionKind* kind = find_reaction(m.reaction);  // the parser took only these
    if (!kind) {
        error(peer, ErrorCode::bad_reaction, "unknown reaction: send one of " + reaction_ids(), "react",
              {{"ids", reaction_ids()}});
        return;
    }
    const Seat* seat = seats_.of(peer);
    const bool spectator = !seat && is_spectator(peer);
    if (!seat && !spectator) {
        error(peer, ErrorCode::not_in_room, "join a room first", "react");
        return;
    }
    if (spectator && !settings_.spectator_reactions) {
        error(peer, ErrorCode::not_a_player,
              "spectators may not send reactions in this room: the host can allow it (settings.spectator_reactions)",
              "react", {{"reason", "react"}});
        return;
    }
    const auto verdict =
        reactions_.admit(seat ? Reactions::player(seat->number) : Reactions::spectator(peer->id()), Clock::now());
    if (!verdict) {
        ++services_.metrics.reactions_refused;
        services_.metrics.count_error(protocol::to_string(ErrorCode::rate_limited));
        const auto wait_ms = verdict.wait.count();
        ErrorReply reply;
        reply.code = std::string(protocol::to_string(ErrorCode::rate_limited));
        reply.message = verdict.kind == Reactions::Verdict::Kind::sender
                            ? "one reaction every 2 s: try again in " + std::to_string(wait_ms) + " ms"
                            : "this room has had its reactions for now (4 a second): try again in " +
                                  std::to_string(wait_ms) + " ms";
        reply.ref = "react";
        reply.retry_after_ms = wait_ms;
        reply.args = nlohmann::json{
            {"limit", verdict.kind == Reactions::Verdict::Kind::sender ? "reaction_sender" : "reaction_room"},
            {"retry_after_ms", wait_ms}};
        out(peer, frame(reply));
        return;
    }
    ++services_.metrics.reactions;
    Reaction r;
    r.seat = seat ? seat->number : -1;
    r.name = seat ? who(*seat) : "a spectator";
    r.role = seat ? "player" : "spectator";
    r.reaction = std::string(kind->id);
    r.label = std::string(kind->label);
    broadcast(r);
}

}  // namespace spookludo::server

#pragma once
// A room: its lobby, its seats, and the game it drives. Every room runs on its own strand; the
// calls below may come from any thread and are posted there. No Asio in this header.
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

#include "peer.h"
#include "services.h"
#include "spookludo/protocol/messages.h"

namespace boost::asio {
class io_context;
}

namespace spookludo::server {

struct FinishedGame;

// A room the journal holds that cannot be taken up again (Room::restore): its game's engine
// shows another step than the journal has (a server whose rules changed under a game, a damaged
// journal), or its rows cannot be read. `finished`: the game's record up to the last step the
// engine and the journal agree on, abandoned there (none when no game was under way); `told`:
// what the room's people hear when they come back with its code.
class RoomLost : public std::runtime_error {
public:
    RoomLost(const std::string& why, std::string to_tell, std::shared_ptr<const FinishedGame> record)
        : std::runtime_error(why), told(std::move(to_tell)), finished(std::move(record)) {}
    std::string told;
    std::shared_ptr<const FinishedGame> finished;
};

class Room : public std::enable_shared_from_this<Room> {
public:
    // `creator_address`: the address of the connection that creates it (the Registry counts the
    // room against it; empty: none).
    static std::shared_ptr<Room> make(boost::asio::io_context& io, Services& services, std::string code,
                                      GameOptions options, protocol::RoomSettings settings,
                                      std::string creator_address);
    // A room the journal held when the server stopped, taken up again (throws RoomLost when its
    // journal cannot be read back). Its players find it paused until they are back (or the reconnect
    // window ends); its bots just go on.
    static std::shared_ptr<Room> restore(boost::asio::io_context& io, Services& services, const SavedRoom& saved);
    virtual ~Room() = default;
    virtual const std::string& code() const noexcept = 0;
    // The address that created the room, kept in the journal with it (a room taken up again from
    // a journal of a server from before it was kept: its game's owner, or empty). Fixed for the
    // life of the room, so any thread may read it.
    virtual const std::string& creator_address() const noexcept = 0;
    // A message from a peer: create_room's creator, join_room, watch and resume arrive here too.
    // `entry` counts the peer's messages that entered a room, this one included (see
    // Peer::detach): the room hands the latest it has seen back when it lets the peer go.
    virtual void deliver(std::shared_ptr<Peer> peer, protocol::ClientMessage message, std::uint64_t entry) = 0;
    // The peer's connection is gone.
    virtual void disconnected(std::shared_ptr<Peer> peer) = 0;
    // The server is stopping: tell everyone (closing "restart") and write nothing more; the next
    // start takes the room up again from the journal. With --abandon-on-exit: end a game in
    // progress (record written, seed revealed) and forget the room (closing "shutdown").
    // `done` is called on the room's strand when that is finished.
    virtual void shutdown(std::function<void()> done) = 0;
    // A cluster's node lost its lease (Redis out of reach): the room pauses as when its journal
    // cannot be written, and tries a write every second; it goes on when one works, or stops
    // here (its players sent on) when another node has taken it over meanwhile.
    virtual void pause_for_cluster(std::string why) = 0;
    // What a restart must take up again exactly, as JSON text: the snapshot everyone sees (less
    // what a restart changes by design: the pause, presence, clocks), each seat's bot, policy,
    // kick, token hash, open decision and its options, the game's record so far, the next die,
    // and what each policy would choose for a seat asked now; `written` is true when every pass
    // is in the journal. For tests that take a room up again after every step and compare. Call
    // it on the room's strand, or while nothing runs the room's io_context.
    virtual std::string inspect() const = 0;
};

// The rooms that were open when the server last stopped (a crash, kill -9, a restart), taken up
// again from the journal (before serving); a room that cannot be read back is logged and
// dropped. Returns how many rooms were taken up.
std::size_t resume_rooms(boost::asio::io_context& io, Services& services);

// A room that could not be taken up (`lost`): counted, logged, and what its people are told when
// they come back is kept (Services::lost_rooms).
void room_lost(Services& services, const std::string& code, const RoomLost& lost);

}  // namespace spookludo::server

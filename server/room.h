#pragma once
// A room: its lobby, its seats, and the game it drives. Every room runs on its own strand; the
// calls below may come from any thread and are posted there. No Asio in this header.
#include <functional>
#include <memory>
#include <string>

#include "peer.h"
#include "services.h"
#include "spookludo/protocol/messages.h"

namespace boost::asio {
class io_context;
}

namespace spookludo::server {

class Room : public std::enable_shared_from_this<Room> {
public:
    // `creator_address`: the address of the connection that creates it (the Registry counts the
    // room against it; empty: none).
    static std::shared_ptr<Room> make(boost::asio::io_context& io, Services& services, std::string code,
                                      GameOptions options, protocol::RoomSettings settings,
                                      std::string creator_address);
    // A room the journal held when the server stopped, taken up again (throws when its journal
    // cannot be read back). Its players find it paused until they are back (or the reconnect
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
};

// The rooms that were open when the server last stopped (a crash, kill -9, a restart), taken up
// again from the journal (before serving); a room that cannot be read back is logged and
// dropped. Returns how many rooms were taken up.
std::size_t resume_rooms(boost::asio::io_context& io, Services& services);

}  // namespace spookludo::server

#pragma once
// Where a room's or a connection's handlers run, one at a time. With one I/O thread (the
// default) the io_context itself runs them one at a time: a strand would only add a lock, a
// queue and a second hop through the scheduler to every handler and every completed read or
// write. With more threads, a strand of the io_context. Included only by .cpp files that use
// Asio.
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>

namespace spookludo::server {

// `threads`: how many threads run `io` (Config::threads).
inline boost::asio::any_io_executor serial_executor(boost::asio::io_context& io, int threads) {
    if (threads <= 1) return io.get_executor();
    return boost::asio::make_strand(io);
}

}  // namespace spookludo::server

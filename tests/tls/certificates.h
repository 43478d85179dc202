#pragma once
// Certificates for the TLS tests, made at run time with OpenSSL (nothing secret is committed): a
// private CA in a directory and server certificates it signs, with the names and the validity a
// test asks for (an expired one, one for another host).
#include <filesystem>
#include <string>
#include <vector>

namespace spookludo::testing {

struct CertificateSpec {
    std::string organisation = "SpookLudo tests";
    // subjectAltName entries: "DNS:localhost", "IP:127.0.0.1".
    std::vector<std::string> names = {"DNS:localhost", "IP:127.0.0.1"};
    // Validity, in seconds from now (negative: in the past).
    long not_before = -3600;
    long not_after = 2 * 86400;
};

class Certificates {
public:
    // A CA (CN "SpookLudo test CA") in `dir`, ca.pem, and a server certificate it signed, cert.pem
    // and key.pem, after `spec`.
    explicit Certificates(const std::filesystem::path& dir, const CertificateSpec& spec = {});
    // A new server certificate from the same CA, written over cert.pem and key.pem (a renewal).
    void make(const CertificateSpec& spec);
    void make(const std::string& organisation) {
        CertificateSpec s;
        s.organisation = organisation;
        make(s);
    }

    std::string dir, ca, cert, key;
};

}  // namespace spookludo::testing

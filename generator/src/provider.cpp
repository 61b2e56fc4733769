// provider.cpp - reply status names shared by every provider.
#include "opforge/generator/provider.h"

#include "opforge/support/error.h"

namespace opforge::generator {

std::string status_name(ChatReply::Status s) {
  switch (s) {
    case ChatReply::Status::Ok:
      return "ok";
    case ChatReply::Status::HttpError:
      return "http_error";
    case ChatReply::Status::Timeout:
      return "timeout";
    case ChatReply::Status::Malformed:
      return "malformed";
    case ChatReply::Status::Transport:
      return "transport";
    case ChatReply::Status::Unsupported:
      return "unsupported";
  }
  return "?";
}

ChatReply::Status parse_status(const std::string &name) {
  for (auto s :
       {ChatReply::Status::Ok, ChatReply::Status::HttpError, ChatReply::Status::Timeout,
        ChatReply::Status::Malformed, ChatReply::Status::Transport, ChatReply::Status::Unsupported})
    if (status_name(s) == name) return s;
  throw Error("unknown reply status '" + name + "'");
}

}  // namespace opforge::generator

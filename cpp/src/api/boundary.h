// The public API's promise that no exception crosses it: every Status/Result-returning entry
// point runs its body through CatchAll, which turns an escaped exception into a Status.
#pragma once

#include <exception>
#include <new>
#include <string>

#include "pyfileindex/status.h"

namespace pyfileindex::api {

// `body` returns Status or Result<T>; so does CatchAll. Out of memory becomes Internal("out of
// memory"): a message short enough to need no allocation of its own.
template <typename Body>
auto CatchAll(const char* where, Body&& body) -> decltype(body()) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return Status::Internal("out of memory");
  } catch (const std::exception& e) {
    return Status::Internal(where, ": unexpected exception: ", e.what());
  } catch (...) {
    return Status::Internal(where, ": unexpected exception");
  }
}

}  // namespace pyfileindex::api

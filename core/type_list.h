// A list of types, and a visit of an object's dynamic type among them: how the host picks
// the concrete clock and endpoint types its loop is specialised for
// (timing/clocks/fast_path_clocks.h, transport/registry/fast_path_endpoints.h).
//
// Freestanding (core/README.md): plain C++17. VisitAmong uses dynamic_cast, so it needs
// RTTI where it is instantiated (the host; the boards name their concrete types directly).
#ifndef CORE_TYPE_LIST_H_
#define CORE_TYPE_LIST_H_

namespace tickbench::core {

template <typename... Ts>
struct TypeList {};

// Stands for the type T in a call of a generic lambda: decltype(tag)::type.
template <typename T>
struct TypeTag {
  using type = T;
};

// Calls visit(TypeTag<T>{}) for the first T of the list that `object` is (its dynamic
// type, or a class derived from T), or visit(TypeTag<Base>{}) when it is none of them.
template <typename Base, typename Object, typename Visit>
auto VisitAmong(TypeList<>, Object& /*object*/, Visit visit) {
  return visit(TypeTag<Base>{});
}

template <typename Base, typename T, typename... Rest, typename Object, typename Visit>
auto VisitAmong(TypeList<T, Rest...>, Object& object, Visit visit) {
  if (dynamic_cast<const T*>(&object) != nullptr) return visit(TypeTag<T>{});
  return VisitAmong<Base>(TypeList<Rest...>{}, object, visit);
}

}  // namespace tickbench::core

#endif  // CORE_TYPE_LIST_H_

; TypeScript and TSX definitions (see ecmascript.scm for the shared ones).

(abstract_class_declaration name: (_) @name) @definition.class
(interface_declaration name: (_) @name) @definition.interface
(type_alias_declaration name: (_) @name) @definition.type
(enum_declaration name: (_) @name) @definition.enum
; namespace N {} and declare module "m" {}
(internal_module name: (_) @name) @definition.namespace
(module name: (_) @name) @definition.module

; Overload and ambient signatures, interface members, abstract members.
(function_signature name: (_) @name) @definition.function
(method_signature name: (_) @name) @definition.method
(abstract_method_signature name: (_) @name) @definition.method

; Class fields holding a function: handler = () => {}
(public_field_definition
  name: (_) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.method

; Enum members: Kind.Discounted, with or without an initializer (a quoted name loses its quotes).
(enum_body (property_identifier) @name @definition.enum_member)
(enum_body (enum_assignment name: (_) @name) @definition.enum_member)

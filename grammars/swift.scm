; Swift definitions for the speky scanner (captures: see README.md).
; This grammar labels parameter and return types `name:` too: names are matched by type.
; When several patterns capture the same node, the first one in this file wins.

; Swift Testing: @Test functions and @Suite types (XCTest's test* methods of an
; XCTestCase subclass follow from the naming rule).
((attribute (user_type (type_identifier) @_attr .)) @test.attribute
 (#match? @_attr "^(Test|Suite)$"))

; Functions in a type or extension body are methods: Type.method
(class_body
  [(function_declaration name: (simple_identifier) @name)
   (init_declaration "init" @name)
   (deinit_declaration "deinit" @name)
   (subscript_declaration "subscript" @name)] @definition.method)
(enum_class_body
  [(function_declaration name: (simple_identifier) @name)
   (init_declaration "init" @name)
   (subscript_declaration "subscript" @name)] @definition.method)
(protocol_body (protocol_function_declaration name: (simple_identifier) @name) @definition.method)
(function_declaration name: (simple_identifier) @name) @definition.function

(class_declaration declaration_kind: "struct" name: (type_identifier) @name) @definition.struct
(class_declaration declaration_kind: "enum" name: (type_identifier) @name) @definition.enum
(class_declaration declaration_kind: "extension" name: (user_type (type_identifier) @name .)) @definition.extension
(class_declaration name: (type_identifier) @name) @definition.class
(protocol_declaration name: (type_identifier) @name) @definition.interface
(typealias_declaration name: (type_identifier) @name) @definition.type

; Properties: global ones are variables, members fields (locals are neither).
(source_file (property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @definition.variable)
(class_body (property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @definition.field)
(enum_class_body (property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @definition.field)
(protocol_body (protocol_property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @definition.field)

; Superclass and protocols, for XCTest (test* methods of an XCTestCase subclass).
(class_declaration (inheritance_specifier inherits_from: (user_type (type_identifier) @base .))) @definition.class

; Enum cases: Kind.discounted (`case a, b` is named after its first case).
(enum_class_body (enum_entry name: (simple_identifier) @name) @definition.enum_member)
